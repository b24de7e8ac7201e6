// CoordinatorService's side of job arrays: a task gets its own stored row and tracking
// when it starts or is acted on alone; until then it is part of its array's row and its
// folded queue line. Whole-array cancel, hold and release, and the array row's end.
#include <csignal>

#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/job_translation.h"
#include "coordinator/daemon/job_views.h"
#include "shared/base/log.h"
#include "shared/base/try.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {

bool CoordinatorService::adopt_array_task(JobId id) {
  if (tracking_.contains(id.value())) return true;
  const JobRecord* rec = scheduler_->job(id);
  if (rec == nullptr || !rec->spec.is_array_task()) return false;
  const JobId array_id = rec->spec.array_job;
  // The task's own request: the array's program with the task's spec, so that it launches,
  // recovers and shows in the history as any job does.
  auto decoded = stored_request(array_id);
  if (!decoded) {
    log_event(LogLevel::kError, "array_task_unreadable",
              {{"job", id_str(id)}, {"array", id_str(array_id)}, {"error", decoded.error().message}});
    txn_failed_ = true;
    return false;
  }
  wire::SubmitRequest task = std::move(*decoded);
  task.client_token.clear();
  task.spec = rec->spec;
  if (!ensure_txn()) return false;
  JobTracking t;
  if (auto a = tracking_.find(array_id.value()); a != tracking_.end()) {
    t.working_dir = a->second.working_dir;
    t.stdout_path = a->second.stdout_path;
    t.stderr_path = a->second.stderr_path;
  }
  tracking_[id.value()] = std::move(t);
  StoredJob s = to_row(*rec, scheduler_->cluster());
  s.request = encode_stored_request(task);
  if (!write(store_->insert_job(s), "insert", id)) return false;
  return true;
}

void CoordinatorService::persist_array(const ArrayJob& a, std::optional<Time> ended) {
  if (!tracking_.contains(a.id().value())) return;  // its row was never written
  if (!ensure_txn()) return;
  StoredJob s;
  s.id = a.id();
  s.user = a.prototype.spec.user;
  s.submit_time = a.prototype.spec.submit_time;
  s.state = ended ? a.outcome() : a.held ? JobState::kHeld : JobState::kPending;
  s.end_time = ended;
  (void)write(store_->update_job(s), "update", a.id());
}

void CoordinatorService::end_arrays(Time now) {
  for (const ArrayJob& a : scheduler_->take_ended_arrays()) {
    persist_array(a, now);
    mail_array_end(a);
    // Its entry (a query by its id lists its tasks) ages out with the finished jobs'.
    finished_order_.push_back(a.id().value());
    log_event(LogLevel::kInfo, "array_ended",
              {{"job", id_str(a.id())}, {"state", std::string(to_string(a.outcome()))},
               {"tasks", std::to_string(a.count())}});
  }
}

Status CoordinatorService::control_array(const wire::JobControl& m, JobId id, const Caller& caller, Time now) {
  const ArrayJob* a = scheduler_->array(id);
  const JobSpec& spec = a->prototype.spec;
  const bool hidden = config_.security.private_data && !caller.admin && !owns(caller, spec);
  if (hidden) return make_error(ErrorCode::kNotFound, "job " + id_str(id) + " does not exist");
  if (!caller.admin && !owns(caller, spec)) {
    return make_error(ErrorCode::kPermissionDenied,
                      "job array " + id_str(id) + " belongs to '" + spec.user + "', not '" + caller.user + "'");
  }
  std::string failures;
  const auto each_task = [&](auto&& act) {
    for (JobId task : scheduler_->live_array_tasks(id)) {
      if (!tracking_.contains(task.value())) continue;  // folded into the array: done with it
      if (auto st = act(task); !st) failures += (failures.empty() ? "" : "; ") + st.error().message;
    }
  };
  switch (m.action) {
    case wire::JobAction::kCancel: {
      // Tasks made for the pass but never run are part of the array: they go with it unseen.
      for (JobId task : scheduler_->live_array_tasks(id)) {
        if (tracking_.contains(task.value())) continue;
        (void)scheduler_->cancel(task, now);
        scheduler_->forget(task);
      }
      each_task([&](JobId task) { return control_one(m, task, caller, now); });
      if (scheduler_->array(id) != nullptr) FAIRWAY_TRY(scheduler_->cancel(id, now));
      log_event(LogLevel::kInfo, "array_cancelled", {{"job", id_str(id)}, {"by", caller.user}});
      break;
    }
    case wire::JobAction::kHold:
    case wire::JobAction::kRelease: {
      const bool hold = m.action == wire::JobAction::kHold;
      FAIRWAY_TRY(hold ? scheduler_->hold(id) : scheduler_->release(id, now));
      each_task([&](JobId task) {
        persist(task);
        return ok_status();
      });
      persist_array(*scheduler_->array(id), std::nullopt);
      break;
    }
    case wire::JobAction::kRequeue:
    case wire::JobAction::kSignal:
      // Only the tasks that run have processes to requeue or signal.
      each_task([&](JobId task) {
        const JobRecord* rec = scheduler_->job(task);
        if (rec->state != JobState::kRunning) return ok_status();
        return control_one(m, task, caller, now);
      });
      break;
    case wire::JobAction::kEndAllocation:
      return make_error(ErrorCode::kFailedPrecondition, "job " + id_str(id) + " is a job array, not an allocation");
  }
  dirty_ = true;
  if (!failures.empty()) return make_error(ErrorCode::kFailedPrecondition, failures);
  return ok_status();
}

Result<JobId> CoordinatorService::array_task_for(JobId array_id, std::int32_t index, const Caller& caller) {
  const std::string name = id_str(array_id) + "_" + std::to_string(index);
  const ArrayJob* a = scheduler_->array(array_id);
  if (a == nullptr) {
    // Ended: its tasks are jobs of their own, kept with their ids.
    for (const auto& [task, t] : tracking_) {
      if (t.final_view && t.final_view->array_job == array_id && t.final_view->array_tasks == std::to_string(index)) {
        return JobId(task);
      }
    }
    return make_error(ErrorCode::kNotFound, "job " + name + " does not exist");
  }
  const bool hidden = config_.security.private_data && !caller.admin && !owns(caller, a->prototype.spec);
  if (hidden) return make_error(ErrorCode::kNotFound, "job " + name + " does not exist");
  if (!caller.admin && !owns(caller, a->prototype.spec)) {
    return make_error(ErrorCode::kPermissionDenied,
                      "job " + name + " belongs to '" + a->prototype.spec.user + "', not '" + caller.user + "'");
  }
  FAIRWAY_TRY_ASSIGN(task, scheduler_->split_array_task(array_id, index));
  const JobRecord* rec = scheduler_->job(task);
  if (rec != nullptr && !is_terminal(rec->state) && !adopt_array_task(task)) {
    return make_error(ErrorCode::kIo, "the job store is unavailable");
  }
  return task;
}

CoordinatorService::ArrayLines CoordinatorService::waiting_array_lines() const {
  ArrayLines lines;
  if (scheduler_->arrays().empty()) return lines;
  // Tasks made for the pass but not run nor acted on alone still count as the array's.
  for (const JobRecord* j : scheduler_->waiting()) {
    if (!j->spec.is_array_task() || tracking_.contains(j->spec.id.value()) || !is_waiting(j->state)) continue;
    ArrayLine& line = lines[j->spec.array_job.value()];
    if (line.indices.empty()) line.why = j->why;
    line.indices.push_back(j->spec.array_task);
  }
  for (const auto& [id, a] : scheduler_->arrays()) {
    if (a.unsplit.empty() && !lines.contains(id)) continue;
    ArrayLine& line = lines[id];
    if (line.indices.empty()) line.why = a.prototype.why;
    for (const auto& [begin, end] : a.unsplit.intervals()) {
      for (std::int64_t p = begin; p < end; ++p) line.indices.push_back(a.prototype.spec.array.index_at(p));
    }
    std::sort(line.indices.begin(), line.indices.end());
  }
  return lines;
}

}  // namespace fairway::daemon
