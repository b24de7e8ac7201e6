// The figures a replay is judged by (docs/architecture.md section 7.1, SUMMARY.json): waits, bounded
// slowdown, utilization, makespan, computed from the produced schedule alone.
#pragma once

#include <cstdint>
#include <vector>

#include "coordinator/sim/schedule_record.h"

namespace fairway::sim {

struct Summary {
  std::int64_t jobs = 0;  // jobs in the workload (skipped ones excluded)
  std::int64_t completed = 0;
  std::int64_t skipped = 0;
  std::int64_t rejected = 0;
  std::int64_t makespan_s = 0;  // last end - first submit
  double utilization = 0;       // core-seconds used / (cores x makespan)
  double wait_mean_s = 0;
  double wait_p50_s = 0;
  double wait_p95_s = 0;
  double wait_p99_s = 0;
  double wait_max_s = 0;
  double bsld_mean = 0;  // max(1, (wait + run) / max(run, 10))
  std::int64_t preemptions = 0;
  std::int64_t requeues = 0;
  std::int64_t sched_passes = 0;
  std::int64_t reservations_cancelled = 0;  // project reservations given back for low use
  double sim_wall_s = 0;
};

// Nearest-rank percentile of an ascending-sorted vector; 0 for an empty one.
double percentile(const std::vector<double>& sorted, double p);

Summary summarize(const std::vector<ScheduleRecord>& records, std::int64_t total_cores,
                  std::int64_t first_submit_s);

}  // namespace fairway::sim
