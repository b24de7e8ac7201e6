// fairway-sim --plots DIR: the replay's charts (schedule_charts.h) written as SVG files.
// Reads and writes only DIR.
#pragma once

#include <string>
#include <vector>

#include "coordinator/sim/schedule_charts.h"
#include "shared/base/result.h"

namespace fairway::sim {

// DIR/utilization.svg, queue.svg, wait_by_size.svg, and gantt.svg when the first run is
// small enough to draw node by node. Creates DIR; errors name the file.
Result<std::vector<std::string>> write_charts(const std::string& dir, const std::vector<ChartRun>& runs,
                                              const std::vector<NodeTopology>& nodes);

}  // namespace fairway::sim
