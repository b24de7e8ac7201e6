#include "coordinator/sim/metrics.h"

#include <algorithm>
#include <cmath>

namespace fairway::sim {

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()));
  const auto idx = static_cast<std::size_t>(std::max(1.0, rank)) - 1;
  return sorted[std::min(idx, sorted.size() - 1)];
}

Summary summarize(const std::vector<ScheduleRecord>& records, std::int64_t total_cores,
                  std::int64_t first_submit_s) {
  Summary s;
  std::vector<double> waits;
  waits.reserve(records.size());
  double bsld_sum = 0;
  double core_seconds = 0;
  std::int64_t last_end = first_submit_s;
  for (const auto& r : records) {
    if (r.preempted) {
      // The machine was used, but the job's wait and slowdown are its final run's.
      ++s.preemptions;
      if (r.state == JobState::kRequeued) ++s.requeues;
      core_seconds +=
          static_cast<double>((r.end - r.start).count()) * static_cast<double>(r.allocation.total_cores());
      last_end = std::max(last_end, r.end.seconds());
      continue;
    }
    if (r.state == JobState::kCompleted) ++s.completed;
    const double wait = static_cast<double>((r.start - r.submit).count());
    const double run = static_cast<double>((r.end - r.start).count());
    waits.push_back(wait);
    bsld_sum += std::max(1.0, (wait + run) / std::max(run, 10.0));
    core_seconds += run * static_cast<double>(r.allocation.total_cores());
    last_end = std::max(last_end, r.end.seconds());
  }
  std::sort(waits.begin(), waits.end());
  const auto n = static_cast<double>(waits.size());
  if (!waits.empty()) {
    double sum = 0;
    for (double w : waits) sum += w;
    s.wait_mean_s = sum / n;
    s.bsld_mean = bsld_sum / n;
    s.wait_p50_s = percentile(waits, 50);
    s.wait_p95_s = percentile(waits, 95);
    s.wait_p99_s = percentile(waits, 99);
    s.wait_max_s = waits.back();
  }
  s.makespan_s = last_end - first_submit_s;
  if (s.makespan_s > 0 && total_cores > 0) {
    s.utilization = core_seconds / (static_cast<double>(total_cores) * static_cast<double>(s.makespan_s));
  }
  return s;
}

}  // namespace fairway::sim
