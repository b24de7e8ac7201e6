// fairway-sim --check's capacity rule, from the schedule alone (independent of the core): no
// core and no GPU is held by two runs at the same moment.
#pragma once

#include <vector>

#include "coordinator/sim/schedule_record.h"
#include "shared/base/result.h"
#include "shared/model/topology.h"

namespace fairway::sim {

// Ok, or the first unit held twice, naming the unit, its node and both runs with their
// spans. Runs of zero length hold nothing. O(records log records + allocated units), with
// memory per unit of the machine.
Status check_capacity(const std::vector<NodeTopology>& nodes, const std::vector<ScheduleRecord>& records);

}  // namespace fairway::sim
