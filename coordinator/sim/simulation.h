// Replays a workload through the real scheduling core in virtual time: arrivals at their
// submit times, completions after their recorded runtimes, one pass per event instant.
// Single-threaded and deterministic: the same input gives the same schedule.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "coordinator/core/scheduler.h"
#include "coordinator/sim/schedule_record.h"
#include "coordinator/sim/workload.h"
#include "shared/base/result.h"
#include "shared/config/config.h"

namespace fairway::sim {

struct SimulationResult {
  std::vector<NodeTopology> nodes;      // the machine that was simulated
  std::vector<ScheduleRecord> records;  // one per job run, in completion order
  std::vector<JobId> rejected;          // refused at submission
  std::vector<std::string> rejection_messages;
  std::int64_t passes = 0;
  // Project reservations given back for low use, in time order.
  std::vector<ReservationCancellation> reservations_cancelled;
};

// When the config declares no nodes, the machine is the workload's MaxProcs (else
// MaxNodes) processors, counted as the scheduling literature counts them for SWF replay:
// single-core nodes, or nodes of kCoresPerCountingNode cores (the last one smaller) when
// every job asks only a core count and every partition places by the core, which gives
// the same schedule with a 64th of the nodes (CEA-Curie's 93k processors, 1,458 nodes).
inline constexpr std::int32_t kCoresPerCountingNode = 64;
Result<Config> machine_for_workload(Config config, const Workload& workload);

// When the config declares its machine and the trace's header states its own, and they are
// more than twice apart in processors: a sentence saying so (a replay is then no picture of
// the trace's site: its queue empties or never drains). Empty otherwise.
std::string machine_size_warning(const Config& config, const Workload& workload);

// Called once per event instant: jobs submitted and finished so far, of `total`, and the
// virtual time. For a progress line; the replay does not depend on it.
using ProgressFn =
    std::function<void(std::size_t submitted, std::size_t finished, std::size_t total, Time now)>;

Result<SimulationResult> simulate(const Config& config, const Workload& workload,
                                  const ProgressFn& progress = {});

}  // namespace fairway::sim
