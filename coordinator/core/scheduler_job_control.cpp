// A job's state changed on request: its processes ended (finish), a user cancelled, held,
// released, requeued or updated it, or acted on its array. Each checks the transition and
// keeps the per-user counts and the job's array in step.
#include <cassert>

#include "coordinator/core/scheduler.h"
#include "shared/base/try.h"

namespace fairway {

Status Scheduler::finish(JobId id, JobState final_state, Time now) {
  JobRecord* j = find(id);
  if (j == nullptr)
    return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  if (j->state != JobState::kRunning && j->state != JobState::kCompleting) {
    return make_error(ErrorCode::kFailedPrecondition, "job " + std::to_string(id.value()) + " is " +
                                                          std::string(to_string(j->state)) + ", not running");
  }
  FAIRWAY_TRY(check_transition(j->state, final_state));
  cluster_.release(j->allocation);
  ledger_.stop_usage(j->association, j->billing_rate, now);
  remove_from(running_, *j);
  if (j->preempting) OwnerPreemption::victim_gone(*j, find(j->preempting->by));
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
  if (j == nullptr)
    return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
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
  if (j == nullptr)
    return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  if (j->state == JobState::kHeld) return ok_status();  // as scontrol hold: nothing to do
  if (j->state != JobState::kPending) {
    return make_error(ErrorCode::kFailedPrecondition, "job " + std::to_string(id.value()) + " is " +
                                                          std::string(to_string(j->state)) +
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
  if (j == nullptr)
    return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  if (j->state != JobState::kHeld) {
    return make_error(ErrorCode::kFailedPrecondition, "job " + std::to_string(id.value()) + " is " +
                                                          std::string(to_string(j->state)) + ", not held");
  }
  j->state = JobState::kPending;
  j->why = {};
  j->eligible_since = now;  // age counts from release, as in Slurm
  return ok_status();
}

Status Scheduler::requeue(JobId id, Time now) {
  JobRecord* j = find(id);
  if (j == nullptr)
    return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  if (j->state != JobState::kRunning && j->state != JobState::kCompleting) {
    return make_error(ErrorCode::kFailedPrecondition, "job " + std::to_string(id.value()) + " is " +
                                                          std::string(to_string(j->state)) + ", not running");
  }
  FAIRWAY_TRY(check_transition(j->state, JobState::kRequeued));
  ++j->requeue_count;
  cluster_.release(j->allocation);
  ledger_.stop_usage(j->association, j->billing_rate, now);
  remove_from(running_, *j);
  if (j->preempting) OwnerPreemption::victim_gone(*j, find(j->preempting->by));
  j->allocation = {};
  j->partition_amounts.clear();
  j->billing_rate = 0;
  j->state = JobState::kPending;
  j->why = {};
  j->reserved_start.reset();
  j->reserved_at.reset();
  j->eligible_since = now;
  j->slot = waiting_.size();
  waiting_.push_back(j);
  return ok_status();
}

// `fairway update job`: a waiting job is admitted again with its new spec, so every check a
// submission passes applies to the change; it keeps its id, its age, its hold and its place
// in line. A running job may change only what does not move it.
Status Scheduler::update(JobId id, const JobChanges& c, std::span<const std::string> owner_groups) {
  JobRecord* j = find(id);
  const std::string job = "job " + std::to_string(id.value());
  if (j == nullptr) return make_error(ErrorCode::kNotFound, job + " not found");
  if (is_terminal(j->state)) {
    return make_error(ErrorCode::kFailedPrecondition, job + " has ended: nothing to update");
  }
  if (c.time_limit && *c.time_limit <= Duration()) {
    return invalid_argument(job + ": TimeLimit must be positive");
  }
  if (!is_waiting(j->state)) {
    // Moving a running job (partition, QOS, account, start time) would change what it holds.
    if (c.partition || c.qos || c.account || c.nice || c.begin) {
      return make_error(ErrorCode::kFailedPrecondition,
                        job + " is " + std::string(to_string(j->state)) +
                            ": only TimeLimit, JobName and Comment can change once it runs");
    }
    if (c.time_limit) j->spec.time_limit = *c.time_limit;
    if (c.name) j->spec.name = *c.name;
    if (c.comment) j->spec.comment = *c.comment;
    return ok_status();
  }

  JobSpec spec = j->spec;
  if (c.time_limit) spec.time_limit = *c.time_limit;
  if (c.partition) {
    spec.partition = *c.partition;
    if (!c.qos) spec.qos.clear();  // the new partition's default QOS, unless one is named
  }
  if (c.qos) spec.qos = *c.qos;
  if (c.account) spec.account = *c.account;
  if (c.name) spec.name = *c.name;
  if (c.comment) spec.comment = *c.comment;
  if (c.nice) spec.nice = *c.nice;
  if (c.begin) spec.begin = *c.begin;

  // Take the record out, admit the new spec under the same id, and carry over what the
  // job has earned while waiting. Nothing else points at a waiting job's record.
  JobRecord old = std::move(*j);
  remove_from(waiting_, *j);
  open_jobs_.add(old.spec, -1);
  jobs_.erase(id.value());
  // A move is checked against the access rules as a submission would be (bob may not walk
  // his job into alice's owner partition); a rename is not, so a tightened rule does not
  // pin jobs already inside.
  const bool moves = c.partition || c.qos || c.account;
  if (auto st = admit(std::move(spec), old.eligible_since,
                      moves ? std::optional<std::span<const std::string>>(owner_groups) : std::nullopt);
      !st) {
    // Put it back exactly as it was.
    open_jobs_.add(old.spec, 1);
    queue(std::move(old));
    return st;
  }
  JobRecord& fresh = jobs_.at(id.value());
  fresh.state = old.state;
  fresh.why = old.why;
  fresh.idle_since = old.idle_since;
  fresh.bypass_count = old.bypass_count;
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
