// Pictures of replays, as plain SVG text: utilization and queue length over time, mean
// wait by job size, and (for short windows) a Gantt chart of nodes. Several runs (EASY vs
// yours) are drawn over each other, one colour each. Pure: records in, SVG text out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "coordinator/sim/schedule_record.h"

namespace fairway::sim {

struct ChartRun {
  std::string label;  // shown in the legend: the config's file name
  const std::vector<ScheduleRecord>* records = nullptr;
  std::int64_t total_cores = 0;
};

std::string utilization_chart(const std::vector<ChartRun>& runs);
std::string queue_length_chart(const std::vector<ChartRun>& runs);
std::string wait_by_size_chart(const std::vector<ChartRun>& runs);
// One run's jobs as bars on their nodes; empty when the schedule is too big to read
// (more than kGanttMaxNodes nodes or kGanttMaxRuns runs).
std::string gantt_chart(const ChartRun& run, const std::vector<NodeTopology>& nodes);

inline constexpr std::size_t kGanttMaxNodes = 128;
inline constexpr std::size_t kGanttMaxRuns = 5000;

}  // namespace fairway::sim
