// CoordinatorService: `fairway update job` (scontrol update job). Who may change what: the
// owner or an admin, and only admins may raise a time limit or give a negative nice; the
// core then checks the change as it checks a submission. The stored request follows, so a
// restart keeps the change; a running job's node learns its new limit.
#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/job_nodes.h"

#include "shared/base/duration_format.h"
#include "shared/base/log.h"
#include "shared/wire/codec.h"
#include "shared/base/try.h"

namespace fairway::daemon {
void CoordinatorService::on_job_update(const std::string& peer, const wire::JobUpdate& m, const Caller& caller) {
  wire::JobControlReply r;
  for (JobId id : m.jobs) {
    auto st = update_one(m, id, caller);
    r.results.push_back(wire::control_result(id, st));
  }
  reply(Channel::kClients, peer, r);
}

Status CoordinatorService::update_one(const wire::JobUpdate& m, JobId id, const Caller& caller) {
  if (scheduler_->array(id) != nullptr) {
    return make_error(ErrorCode::kFailedPrecondition,
                      "job " + id_str(id) + " is a job array: changing all its tasks at once is not supported yet "
                      "(hold it, or cancel it and submit again)");
  }
  FAIRWAY_TRY_ASSIGN(found, live_job_for(id, caller));
  const JobRecord& rec = *found;
  const std::string job = "job " + id_str(id);
  // As Slurm: users may shorten their jobs and lower their priority; only admins lengthen
  // a job or raise its priority, since either takes from everyone else.
  if (m.time_limit && *m.time_limit > rec.spec.time_limit && !caller.admin) {
    return make_error(ErrorCode::kPermissionDenied,
                      job + ": only root and the admin group may raise a time limit (" +
                          format_walltime(rec.spec.time_limit) + " -> " + format_walltime(*m.time_limit) + ")");
  }
  if (m.nice && *m.nice < 0 && !caller.admin) {
    return make_error(ErrorCode::kPermissionDenied,
                      job + ": Nice=" + std::to_string(*m.nice) +
                          ": only root and the admin group may give a negative nice (it raises priority)");
  }
  if (!m.account.empty()) {
    if (auto st = check_account(m.account, rec.spec.user, caller); !st) {
      return std::unexpected(st.error().with_context(job));
    }
  }
  JobChanges c;
  c.time_limit = m.time_limit;
  if (!m.partition.empty()) c.partition = m.partition;
  if (!m.qos.empty()) c.qos = m.qos;
  if (!m.account.empty()) c.account = m.account;
  if (!m.name.empty()) c.name = m.name;
  c.comment = m.comment;
  c.nice = m.nice;
  c.begin = m.begin;

  auto stored = stored_request(id);
  if (!stored) return make_error(ErrorCode::kInternal, job + ": " + stored.error().message);
  const bool running = !is_waiting(rec.state);
  // The rules see the job's owner, as Slurm checks the job's user, whoever asks.
  FAIRWAY_TRY(scheduler_->update(id, c, access_groups(rec.spec.user, rec.spec.gid.value_or(0))));
  // The record may have been rebuilt: read it again.
  const JobRecord* now_rec = scheduler_->job(id);
  stored->spec = now_rec->spec;
  if (!ensure_txn()) return make_error(ErrorCode::kIo, "the job store is unavailable");
  if (!write(store_->update_request(id, encode_stored_request(*stored)), "update_request", id)) {
    return make_error(ErrorCode::kIo, job + ": the change could not be stored");
  }
  if (running && m.time_limit) {
    const std::string head = head_node(now_rec->allocation, scheduler_->cluster());
    if (!head.empty()) reply(Channel::kAgents, head, wire::SetTimeLimit{id, *m.time_limit});
  }
  dirty_ = true;
  log_event(LogLevel::kInfo, "job_updated",
            {{"job", id_str(id)}, {"by", caller.user},
             {"time_limit", m.time_limit ? format_walltime(*m.time_limit) : ""},
             {"partition", m.partition}, {"qos", m.qos}, {"account", m.account}});
  return ok_status();
}

}  // namespace fairway::daemon
