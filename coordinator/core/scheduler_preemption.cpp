// The Scheduler's part in preemption: a victim that owner_preemption.h chose stops
// (stop_preempted), and a maintenance window's start requeues its killable jobs.
#include <cassert>

#include "coordinator/core/scheduler.h"
#include "shared/base/try.h"

namespace fairway {

// A maintenance window's start requeues the killable jobs on its nodes (Titan, seed 000:
// killed, and requeued after the outage).
void Scheduler::preempt_for_maintenance(Time now, PassResult& result) {
  for (JobId id : maintenance_.due_for_preemption(cluster_, config_, running_, now)) {
    const JobRecord* j = find(id);
    JobPreemption p{id, "maintenance on its nodes begins", j->start_time, j->allocation};
    const Status st = requeue(id, now);
    assert(st.has_value() && "a running job can always be requeued");
    (void)st;
    find(id)->reason = p.reason;
    result.preempted.push_back(std::move(p));
  }
}

Result<JobState> Scheduler::stop_preempted(JobId id, Time now) {
  JobRecord* j = find(id);
  if (j == nullptr)
    return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  if (j->state != JobState::kRunning || !j->preempting) {
    return make_error(ErrorCode::kFailedPrecondition,
                      "job " + std::to_string(id.value()) + " is not being preempted");
  }
  const bool requeue_it = j->preempting->requeue;
  ++j->preempt_count;
  if (requeue_it) {
    FAIRWAY_TRY(requeue(id, now));
    return JobState::kPending;
  }
  FAIRWAY_TRY(finish(id, JobState::kPreempted, now));
  return JobState::kPreempted;
}

}  // namespace fairway
