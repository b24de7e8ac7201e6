// A job's state changed on request: its processes ended (finish), a user cancelled it,
// held or released it. Each checks the transition and keeps the per-user counts and the
// job's array in step.
#include "coordinator/core/scheduler.h"
#include "shared/base/try.h"

namespace fairway {

Status Scheduler::finish(JobId id, JobState final_state, Time now) {
  JobRecord* j = find(id);
  if (j == nullptr) return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  if (j->state != JobState::kRunning && j->state != JobState::kCompleting) {
    return make_error(ErrorCode::kFailedPrecondition,
                      "job " + std::to_string(id.value()) + " is " + std::string(to_string(j->state)) + ", not running");
  }
  FAIRWAY_TRY(check_transition(j->state, final_state));
  cluster_.release(j->allocation);
  ledger_.stop_usage(j->association, j->billing_rate, now);
  remove_from(running_, *j);
  victim_gone(*j);
  j->state = final_state;
  j->end_time = now;
  // Runs that ended on their own are what a user's next runs are predicted from; a
  // cancel, a preemption or a lost node says nothing about how long the work takes.
  if (final_state == JobState::kCompleted || final_state == JobState::kFailed ||
      final_state == JobState::kTimeout || final_state == JobState::kOutOfMemory) {
    restore_runtime(j->spec.user, now - j->start_time, now);
  }
  open_jobs_.add(j->spec, -1);
  if (j->spec.is_array_task()) arrays_.task_ended(*j, ended_);
  return ok_status();
}

Status Scheduler::cancel(JobId id, Time now) {
  JobRecord* j = find(id);
  if (j == nullptr && arrays_.contains(id)) return cancel_array(id);
  if (j == nullptr) return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  if (j->state == JobState::kRunning || j->state == JobState::kCompleting) {
    return finish(id, JobState::kCancelled, now);
  }
  FAIRWAY_TRY(check_transition(j->state, JobState::kCancelled));
  remove_from(waiting_, *j);
  j->state = JobState::kCancelled;
  j->end_time = now;
  open_jobs_.add(j->spec, -1);
  if (j->spec.is_array_task()) arrays_.task_ended(*j, ended_);
  return ok_status();
}

Status Scheduler::hold(JobId id) {
  JobRecord* j = find(id);
  if (j == nullptr && arrays_.contains(id)) return hold_array(id, true, Time());
  if (j == nullptr) return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  if (j->state == JobState::kHeld) return ok_status();  // as scontrol hold: nothing to do
  if (j->state != JobState::kPending) {
    return make_error(ErrorCode::kFailedPrecondition,
                      "job " + std::to_string(id.value()) + " is " + std::string(to_string(j->state)) +
                          ": only pending jobs can be held");
  }
  j->state = JobState::kHeld;
  j->why = {};
  j->why.add(PendingReason::kHeld);
  j->reserved_start.reset();
  j->reserved_at.reset();
  j->idle_since.reset();
  return ok_status();
}

Status Scheduler::release(JobId id, Time now) {
  JobRecord* j = find(id);
  if (j == nullptr && arrays_.contains(id)) return hold_array(id, false, now);
  if (j == nullptr) return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  if (j->state != JobState::kHeld) {
    return make_error(ErrorCode::kFailedPrecondition,
                      "job " + std::to_string(id.value()) + " is " + std::string(to_string(j->state)) + ", not held");
  }
  j->state = JobState::kPending;
  j->why = {};
  j->eligible_since = now;  // age counts from release, as in Slurm
  return ok_status();
}

// Job arrays: the book (array_book.h) holds them; acting on one also acts on its tasks
// that are jobs, and keeps the per-user counts.
Result<JobId> Scheduler::split_array_task(JobId array_id, std::int32_t index) {
  FAIRWAY_TRY_ASSIGN(split, arrays_.split(array_id, index));
  if (split.made) queue(std::move(*split.made));
  return split.id;
}

std::vector<JobId> Scheduler::live_array_tasks(JobId array_id) const {
  std::vector<JobId> out;
  const ArrayJob* a = array(array_id);
  if (a == nullptr) return out;
  for (std::int64_t p = 0; p < a->count(); ++p) {
    const JobRecord* j = job(a->task_id(p));
    if (j != nullptr && !is_terminal(j->state)) out.push_back(j->spec.id);
  }
  return out;
}

Status Scheduler::cancel_array(JobId id) {
  const ArrayJob& a = *arrays_.find(id);
  open_jobs_.add(a.prototype.spec, -a.unsplit.size());  // the array counted them all
  arrays_.cancel(id, ended_);
  return ok_status();
}

Status Scheduler::hold_array(JobId id, bool hold, Time now) {
  arrays_.set_held(id, hold, now);
  for (JobId t : live_array_tasks(id)) {
    const JobRecord* j = job(t);
    if (hold && j->state == JobState::kPending) (void)this->hold(t);
    if (!hold && j->state == JobState::kHeld) (void)release(t, now);
  }
  return ok_status();
}

}  // namespace fairway
