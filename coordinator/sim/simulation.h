// Replays a workload through the real scheduling core in virtual time: arrivals at their
// submit times, completions after their recorded runtimes, one pass per event instant.
// Single-threaded and deterministic: the same input gives the same schedule.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "coordinator/sim/schedule_record.h"
#include "coordinator/sim/workload.h"
#include "shared/base/result.h"
#include "shared/config/config.h"

namespace fairway::sim {

struct SimulationResult {
  std::vector<NodeTopology> nodes;        // the machine that was simulated
  std::vector<ScheduleRecord> records;    // one per job run, in completion order
  std::vector<JobId> rejected;            // refused at submission
  std::vector<std::string> rejection_messages;
  std::int64_t passes = 0;
};

// When the config declares no nodes, the machine is the workload's MaxProcs (else
// MaxNodes) single-core nodes: the model the scheduling literature uses for SWF replay.
Result<Config> machine_for_workload(Config config, const Workload& workload);

Result<SimulationResult> simulate(const Config& config, const Workload& workload);

}  // namespace fairway::sim
