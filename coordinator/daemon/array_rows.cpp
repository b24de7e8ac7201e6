#include "coordinator/daemon/array_rows.h"

#include <string>
#include <utility>

#include "coordinator/daemon/job_tracking.h"
#include "coordinator/daemon/job_translation.h"
#include "coordinator/daemon/stored_request.h"
#include "shared/base/log.h"

namespace fairway::daemon {

bool adopt_array_task(const ServiceContext& ctx, JobId id) {
  if (ctx.tracking.contains(id.value())) return true;
  const JobRecord* rec = ctx.scheduler.job(id);
  if (rec == nullptr || !rec->spec.is_array_task()) return false;
  const JobId array_id = rec->spec.array_job;
  // The task's own request: the array's program with the task's spec, so that it launches,
  // recovers and shows in the history as any job does.
  auto decoded = ctx.service.stored_request(array_id);
  if (!decoded) {
    log_event(LogLevel::kError, "array_task_unreadable",
              {{"job", std::to_string(id.value())},
               {"array", std::to_string(array_id.value())},
               {"error", decoded.error().message}});
    ctx.service.fail_turn();
    return false;
  }
  wire::SubmitRequest task = std::move(*decoded);
  task.client_token.clear();
  task.spec = rec->spec;
  if (!ctx.service.ensure_txn()) return false;
  JobTracking t;
  if (auto a = ctx.tracking.find(array_id.value()); a != ctx.tracking.end()) {
    t.working_dir = a->second.working_dir;
    t.stdout_path = a->second.stdout_path;
    t.stderr_path = a->second.stderr_path;
  }
  ctx.tracking[id.value()] = std::move(t);
  StoredJob s = to_row(*rec, ctx.scheduler.cluster());
  s.request = encode_stored_request(task);
  if (!ctx.service.write(ctx.store.insert_job(s), "insert", id)) return false;
  return true;
}

void persist_array(const ServiceContext& ctx, const ArrayJob& a, std::optional<Time> ended) {
  if (!ctx.tracking.contains(a.id().value())) return;  // its row was never written
  if (!ctx.service.ensure_txn()) return;
  StoredJob s;
  s.id = a.id();
  s.user = a.prototype.spec.user;
  s.submit_time = a.prototype.spec.submit_time;
  s.state = ended ? a.outcome() : a.held ? JobState::kHeld : JobState::kPending;
  s.end_time = ended;
  (void)ctx.service.write(ctx.store.update_job(s), "update", a.id());
}

std::vector<ArrayJob> end_arrays(const ServiceContext& ctx, Time now) {
  std::vector<ArrayJob> ended = ctx.scheduler.take_ended_arrays();
  for (const ArrayJob& a : ended) {
    persist_array(ctx, a, now);
    log_event(LogLevel::kInfo, "array_ended",
              {{"job", std::to_string(a.id().value())},
               {"state", std::string(to_string(a.outcome()))},
               {"tasks", std::to_string(a.count())}});
  }
  return ended;
}

}  // namespace fairway::daemon
