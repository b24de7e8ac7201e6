// The Scheduler's part in preemption: a victim that owner_preemption.h chose stops
// (stop_preempted), and a maintenance window's start requeues its killable jobs.
#include <algorithm>
#include <cassert>

#include "coordinator/core/placement.h"
#include "coordinator/core/scheduler.h"
#include "coordinator/core/victim_selection.h"
#include "shared/base/try.h"

namespace fairway {

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
