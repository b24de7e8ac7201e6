// Scheduler::estimate_start, sbatch --test-only: a what-if pass on a copy of the scheduler.
// The copy costs O(jobs); it runs only when a user asks, never in the scheduling loop.
#include <algorithm>
#include <string>

#include "coordinator/core/scheduler.h"

namespace fairway {

std::unique_ptr<Scheduler> Scheduler::what_if_copy() const {
  std::unique_ptr<Scheduler> copy(new Scheduler(*this));
  for (JobRecord*& j : copy->waiting_) j = &copy->jobs_.at(j->spec.id.value());
  for (JobRecord*& j : copy->running_) j = &copy->jobs_.at(j->spec.id.value());
  return copy;
}

std::optional<Time> Scheduler::estimate_start_by_limit(JobId id, Time now) const {
  const JobRecord* j = job(id);
  if (j == nullptr || !is_waiting(j->state)) return std::nullopt;
  std::unique_ptr<Scheduler> copy = what_if_copy();
  copy->config_.scheduler.runtime_prediction = RuntimePrediction::kNone;
  for (auto& [key, record] : copy->jobs_) record.predicted_runtime.reset();
  (void)copy->schedule(now);
  const JobRecord& c = *copy->find(id);
  if (c.state == JobState::kRunning) return c.start_time;
  return c.why.estimated_start;
}

Result<StartEstimate> Scheduler::estimate_start(JobSpec spec, Time now,
                                                std::span<const std::string> groups) const {
  std::unique_ptr<Scheduler> copy = what_if_copy();
  copy->config_.scheduler.backfill = BackfillMode::kConservative;
  copy->config_.scheduler.reservation_depth.reset();
  copy->config_.scheduler.reservation_min_priority.reset();
  std::uint64_t id = 1;
  for (const auto& [existing, record] : jobs_) id = std::max(id, existing + 1);
  spec.id = JobId(id);
  spec.hold = false;
  if (auto st = copy->submit(std::move(spec), now, groups); !st) {
    // It was never a job: its refusal names none.
    Error e = st.error();
    const std::string prefix = "job " + std::to_string(id) + ": ";
    if (e.message.starts_with(prefix)) e.message.erase(0, prefix.size());
    return std::unexpected(std::move(e));
  }
  (void)copy->schedule(now);
  const JobRecord& j = *copy->find(JobId(id));
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
