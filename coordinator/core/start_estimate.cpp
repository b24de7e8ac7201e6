// The copy costs O(jobs); it runs only when a user asks, never in the scheduling loop.
#include "coordinator/core/start_estimate.h"

#include <memory>
#include <string>

namespace fairway {

std::optional<Time> estimate_start_by_limit(const Scheduler& scheduler, JobId id, Time now) {
  const JobRecord* j = scheduler.job(id);
  if (j == nullptr || !is_waiting(j->state)) return std::nullopt;
  SchedulerConfig by_limit = scheduler.config().scheduler;
  by_limit.runtime_prediction = RuntimePrediction::kNone;
  std::unique_ptr<Scheduler> copy = scheduler.what_if(by_limit);
  (void)copy->schedule(now);
  const JobRecord& c = *copy->job(id);
  if (c.state == JobState::kRunning) return c.start_time;
  return c.why.estimated_start;
}

Result<StartEstimate> estimate_start(const Scheduler& scheduler, JobSpec spec, Time now,
                                     std::span<const std::string> groups) {
  SchedulerConfig conservative = scheduler.config().scheduler;
  conservative.backfill = BackfillMode::kConservative;
  conservative.reservation_depth.reset();
  conservative.reservation_min_priority.reset();
  std::unique_ptr<Scheduler> copy = scheduler.what_if(conservative);
  const JobId id = scheduler.unused_id();
  spec.id = id;
  spec.hold = false;
  if (auto st = copy->submit(std::move(spec), now, groups); !st) {
    // It was never a job: its refusal names none.
    Error e = st.error();
    const std::string prefix = "job " + std::to_string(id.value()) + ": ";
    if (e.message.starts_with(prefix)) e.message.erase(0, prefix.size());
    return std::unexpected(std::move(e));
  }
  (void)copy->schedule(now);
  const JobRecord& j = *copy->job(id);
  StartEstimate e;
  e.partition = j.spec.partition;
  if (j.state == JobState::kRunning) {
    e.start = j.start_time;
    e.allocation = j.allocation;
  } else {
    e.why = j.why;
    e.start = j.why.estimated_start;
  }
  return e;
}

}  // namespace fairway
