// CoordinatorService's side of job arrays: a task gets its own stored row and tracking
// when it starts or is acted on alone; until then it is part of its array's row and its
// folded queue line. The array row's changes and its end; a whole array's cancel, hold and
// release are the client API's (client_control.cpp).
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
              {{"job", id_str(a.id())},
               {"state", std::string(to_string(a.outcome()))},
               {"tasks", std::to_string(a.count())}});
  }
}

}  // namespace fairway::daemon
