#include "coordinator/daemon/client_control.h"

#include <csignal>

#include "coordinator/daemon/array_rows.h"
#include "coordinator/daemon/client_access.h"
#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/job_nodes.h"
#include "shared/base/duration_format.h"
#include "shared/base/log.h"
#include "shared/base/try.h"

namespace fairway::daemon {
namespace {

// Who cancelled a job, by name and uid: sacct's "CANCELLED by UID" is read from it.
std::string cancel_reason(const Caller& caller) {
  return "cancelled by " + caller.user + " (uid " + std::to_string(caller.uid) + ")";
}

// One job: cancel, end an allocation, hold, release, requeue, signal.
Status control_one(ServiceContext& ctx, const wire::JobControl& m, JobId id, const Caller& caller, Time now) {
  const wire::JobAction action = m.action;
  const std::string& user = caller.user;
  FAIRWAY_TRY_ASSIGN(found, live_job_for(ctx, id, caller));
  const JobRecord* rec = found;
  const std::string head = head_node(rec->allocation, ctx.scheduler.cluster());
  const bool running = rec->state == JobState::kRunning || rec->state == JobState::kCompleting;
  switch (action) {
    case wire::JobAction::kCancel:
      if (running) {
        (void)ctx.service.on_job_event(id, lifecycle::CancelAsked{cancel_reason(caller)}, now);
        log_event(LogLevel::kInfo, "job_cancel_requested", {{"job", id_str(id)}, {"node", head}});
        return ok_status();
      }
      FAIRWAY_TRY(ctx.scheduler.cancel(id, now));
      (void)ctx.scheduler.set_reason(id, cancel_reason(caller));
      ctx.service.mark_terminal(id, now);
      log_event(LogLevel::kInfo, "job_cancelled", {{"job", id_str(id)}, {"by", user}});
      break;
    case wire::JobAction::kEndAllocation:
      if (!rec->spec.interactive) {
        return make_error(ErrorCode::kFailedPrecondition,
                          "job " + id_str(id) + " is a batch job: its script's exit says how it ended");
      }
      if (running) {
        (void)ctx.service.on_job_event(id, lifecycle::AllocationEnded{m.exit_code, m.signal}, now);
        log_event(LogLevel::kInfo, "allocation_end_requested",
                  {{"job", id_str(id)}, {"exit_code", std::to_string(m.exit_code)}, {"by", user}});
        return ok_status();
      }
      // Still waiting: nothing ran, so it ends as a cancel does.
      FAIRWAY_TRY(ctx.scheduler.cancel(id, now));
      (void)ctx.scheduler.set_reason(id, cancel_reason(caller));
      ctx.service.mark_terminal(id, now);
      break;
    case wire::JobAction::kHold:
      FAIRWAY_TRY(ctx.scheduler.hold(id));
      ctx.service.persist(id);
      break;
    case wire::JobAction::kRelease:
      FAIRWAY_TRY(ctx.scheduler.release(id, now));
      ctx.service.persist(id);
      break;
    case wire::JobAction::kRequeue:
      if (!running) {
        return make_error(ErrorCode::kFailedPrecondition, "job " + id_str(id) + " is " +
                                                              std::string(to_string(rec->state)) +
                                                              ", only running jobs can be requeued");
      }
      (void)ctx.service.on_job_event(id, lifecycle::RequeueAsked{}, now);
      break;
    case wire::JobAction::kSignal:
      // scancel --signal: the job runs on; only a running job has processes to tell.
      if (!running || head.empty()) {
        return make_error(ErrorCode::kFailedPrecondition, "job " + id_str(id) + " is " +
                                                              std::string(to_string(rec->state)) +
                                                              ": only a running job can be signalled");
      }
      ctx.service.reply(Channel::kAgents, head, wire::SendSignal{id, m.signal, m.batch_only});
      // Its steps' tasks on the other nodes too (the batch script runs on the first alone).
      if (!m.batch_only) {
        for (const std::string& node : member_nodes(rec->allocation, ctx.scheduler.cluster()))
          ctx.service.reply(Channel::kAgents, node, wire::SendSignal{id, m.signal, false});
      }
      log_event(LogLevel::kInfo, "job_signal_sent",
                {{"job", id_str(id)}, {"node", head}, {"signal", std::to_string(m.signal)}, {"by", user}});
      return ok_status();
  }
  ctx.service.changed();
  return ok_status();
}

// A whole array: its tasks that run or were acted on alone each as one job, the rest
// (folded into the array's row) with the array.
Status control_array(ServiceContext& ctx, const wire::JobControl& m, JobId id, const Caller& caller,
                     Time now) {
  const ArrayJob* a = ctx.scheduler.array(id);
  const JobSpec& spec = a->prototype.spec;
  const bool hidden = ctx.config.security.private_data && !caller.admin && !owns(caller, spec);
  if (hidden) return make_error(ErrorCode::kNotFound, "job " + id_str(id) + " does not exist");
  if (!caller.admin && !owns(caller, spec)) {
    return make_error(ErrorCode::kPermissionDenied, "job array " + id_str(id) + " belongs to '" + spec.user +
                                                        "', not '" + caller.user + "'");
  }
  std::string failures;
  const auto each_task = [&](auto&& act) {
    for (JobId task : ctx.scheduler.live_array_tasks(id)) {
      if (!ctx.tracking.contains(task.value())) continue;  // folded into the array: done with it
      if (auto st = act(task); !st) failures += (failures.empty() ? "" : "; ") + st.error().message;
    }
  };
  switch (m.action) {
    case wire::JobAction::kCancel: {
      // Tasks made for the pass but never run are part of the array: they go with it unseen.
      for (JobId task : ctx.scheduler.live_array_tasks(id)) {
        if (ctx.tracking.contains(task.value())) continue;
        (void)ctx.scheduler.cancel(task, now);
        ctx.scheduler.forget(task);
      }
      each_task([&](JobId task) { return control_one(ctx, m, task, caller, now); });
      if (ctx.scheduler.array(id) != nullptr) FAIRWAY_TRY(ctx.scheduler.cancel(id, now));
      log_event(LogLevel::kInfo, "array_cancelled", {{"job", id_str(id)}, {"by", caller.user}});
      break;
    }
    case wire::JobAction::kHold:
    case wire::JobAction::kRelease: {
      const bool hold = m.action == wire::JobAction::kHold;
      FAIRWAY_TRY(hold ? ctx.scheduler.hold(id) : ctx.scheduler.release(id, now));
      each_task([&](JobId task) {
        ctx.service.persist(task);
        return ok_status();
      });
      persist_array(ctx, *ctx.scheduler.array(id), std::nullopt);
      break;
    }
    case wire::JobAction::kRequeue:
    case wire::JobAction::kSignal:
      // Only the tasks that run have processes to requeue or signal.
      each_task([&](JobId task) {
        const JobRecord* rec = ctx.scheduler.job(task);
        if (rec->state != JobState::kRunning) return ok_status();
        return control_one(ctx, m, task, caller, now);
      });
      break;
    case wire::JobAction::kEndAllocation:
      return make_error(ErrorCode::kFailedPrecondition,
                        "job " + id_str(id) + " is a job array, not an allocation");
  }
  ctx.service.changed();
  if (!failures.empty()) return make_error(ErrorCode::kFailedPrecondition, failures);
  return ok_status();
}

// "ID_INDEX": the task's job id, made a job of its own (with its row) if it was not.
Result<JobId> array_task_for(ServiceContext& ctx, JobId array_id, std::int32_t index, const Caller& caller) {
  const std::string name = id_str(array_id) + "_" + std::to_string(index);
  const ArrayJob* a = ctx.scheduler.array(array_id);
  if (a == nullptr) {
    // Ended: its tasks are jobs of their own, kept with their ids.
    for (const auto& [task, ended] : ctx.finished.kept()) {
      if (ended.view && ended.view->array_job == array_id &&
          ended.view->array_tasks == std::to_string(index)) {
        return JobId(task);
      }
    }
    return make_error(ErrorCode::kNotFound, "job " + name + " does not exist");
  }
  const bool hidden = ctx.config.security.private_data && !caller.admin && !owns(caller, a->prototype.spec);
  if (hidden) return make_error(ErrorCode::kNotFound, "job " + name + " does not exist");
  if (!caller.admin && !owns(caller, a->prototype.spec)) {
    return make_error(ErrorCode::kPermissionDenied, "job " + name + " belongs to '" + a->prototype.spec.user +
                                                        "', not '" + caller.user + "'");
  }
  FAIRWAY_TRY_ASSIGN(task, ctx.scheduler.split_array_task(array_id, index));
  const JobRecord* rec = ctx.scheduler.job(task);
  if (rec != nullptr && !is_terminal(rec->state) && !adopt_array_task(ctx, task)) {
    return make_error(ErrorCode::kIo, "the job store is unavailable");
  }
  return task;
}

// Who may change what: the owner or an admin, and only admins may raise a time limit or
// give a negative nice; the core then checks the change as it checks a submission. The
// stored request follows, so a restart keeps the change; a running job's node learns its
// new limit.
Status update_one(ServiceContext& ctx, const wire::JobUpdate& m, JobId id, const Caller& caller) {
  if (ctx.scheduler.array(id) != nullptr) {
    return make_error(ErrorCode::kFailedPrecondition,
                      "job " + id_str(id) +
                          " is a job array: changing all its tasks at once is not supported yet "
                          "(hold it, or cancel it and submit again)");
  }
  FAIRWAY_TRY_ASSIGN(found, live_job_for(ctx, id, caller));
  const JobRecord& rec = *found;
  const std::string job = "job " + id_str(id);
  // As Slurm: users may shorten their jobs and lower their priority; only admins lengthen
  // a job or raise its priority, since either takes from everyone else.
  if (m.time_limit && *m.time_limit > rec.spec.time_limit && !caller.admin) {
    return make_error(ErrorCode::kPermissionDenied,
                      job + ": only root and the admin group may raise a time limit (" +
                          format_walltime(rec.spec.time_limit) + " -> " + format_walltime(*m.time_limit) +
                          ")");
  }
  if (m.nice && *m.nice < 0 && !caller.admin) {
    return make_error(ErrorCode::kPermissionDenied,
                      job + ": Nice=" + std::to_string(*m.nice) +
                          ": only root and the admin group may give a negative nice (it raises priority)");
  }
  if (!m.account.empty()) {
    if (auto st = check_account(ctx.config, m.account, rec.spec.user, caller); !st) {
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

  auto stored = ctx.service.stored_request(id);
  if (!stored) return make_error(ErrorCode::kInternal, job + ": " + stored.error().message);
  const bool running = !is_waiting(rec.state);
  // The rules see the job's owner, as Slurm checks the job's user, whoever asks.
  FAIRWAY_TRY(
      ctx.scheduler.update(id, c, access_groups(ctx.config, rec.spec.user, rec.spec.gid.value_or(0))));
  // The record may have been rebuilt: read it again.
  const JobRecord* now_rec = ctx.scheduler.job(id);
  stored->spec = now_rec->spec;
  if (!ctx.service.ensure_txn()) return make_error(ErrorCode::kIo, "the job store is unavailable");
  if (!ctx.service.write(ctx.store.update_request(id, encode_stored_request(*stored)), "update_request",
                         id)) {
    return make_error(ErrorCode::kIo, job + ": the change could not be stored");
  }
  if (running && m.time_limit) {
    const std::string head = head_node(now_rec->allocation, ctx.scheduler.cluster());
    if (!head.empty()) ctx.service.reply(Channel::kAgents, head, wire::SetTimeLimit{id, *m.time_limit});
  }
  ctx.service.changed();
  log_event(LogLevel::kInfo, "job_updated",
            {{"job", id_str(id)},
             {"by", caller.user},
             {"time_limit", m.time_limit ? format_walltime(*m.time_limit) : ""},
             {"partition", m.partition},
             {"qos", m.qos},
             {"account", m.account}});
  return ok_status();
}

Status control_node(ServiceContext& ctx, const wire::NodeControl& m, const std::string& name,
                    const Caller& caller, Time now) {
  NodeEntry* n = ctx.registry.find(name);
  if (n == nullptr) return make_error(ErrorCode::kNotFound, "node '" + name + "' does not exist");
  const bool drain = m.action == wire::NodeAction::kDrain;
  if (!ctx.service.ensure_txn()) return make_error(ErrorCode::kIo, "the job store is unavailable");
  NodeAdminState stored{name, drain, {}, {}, {}, {}};
  if (drain) {
    stored.reason = m.reason;
    stored.by_user = caller.user;
    stored.by_uid = caller.uid;
    stored.at = now;
  }
  if (!ctx.service.write(ctx.store.set_node_admin_state(stored), "set_node_admin_state", JobId())) {
    return make_error(ErrorCode::kIo, "node '" + name + "': the change could not be stored");
  }
  n->drained = drain;
  if (drain) {
    NodeRegistry::set_reason(*n, m.reason, {caller.user, caller.uid}, now);
  } else if (n->liveness == NodeLiveness::kUp) {
    NodeRegistry::clear_reason(*n);
  }
  // Drained: running jobs finish, nothing new starts (the core withholds its free cores).
  ctx.scheduler.set_node_up(n->index, NodeRegistry::schedulable(*n));
  log_event(LogLevel::kInfo, drain ? "node_drained" : "node_resumed",
            {{"node", name}, {"by", caller.user}, {"reason", m.reason}});
  ctx.service.changed();
  return ok_status();
}

}  // namespace

wire::Message job_control(ServiceContext& ctx, const wire::JobControl& m, const Caller& caller, Time now) {
  wire::JobControlReply r;
  for (JobId id : m.jobs) {
    auto st = ctx.scheduler.array(id) != nullptr ? control_array(ctx, m, id, caller, now)
                                                 : control_one(ctx, m, id, caller, now);
    r.results.push_back(wire::control_result(id, st));
  }
  for (std::size_t i = 0; i < m.task_arrays.size() && i < m.task_indices.size(); ++i) {
    auto task = array_task_for(ctx, m.task_arrays[i], m.task_indices[i], caller);
    Status st = task ? control_one(ctx, m, *task, caller, now) : status_of(task);
    r.results.push_back(wire::control_result(task ? *task : m.task_arrays[i], st));
  }
  return r;
}

wire::Message job_update(ServiceContext& ctx, const wire::JobUpdate& m, const Caller& caller) {
  wire::JobControlReply r;
  for (JobId id : m.jobs) {
    auto st = update_one(ctx, m, id, caller);
    r.results.push_back(wire::control_result(id, st));
  }
  return r;
}

wire::Message node_control(ServiceContext& ctx, const wire::NodeControl& m, const Caller& caller, Time now) {
  if (!caller.admin) {
    return wire::ErrorReply{
        ErrorCode::kPermissionDenied,
        "only root and the admin group may drain or resume nodes, not '" + caller.user + "'"};
  }
  if (m.action == wire::NodeAction::kDrain && m.reason.empty()) {
    return wire::ErrorReply{ErrorCode::kInvalidArgument, "a drain needs a reason (--reason)"};
  }
  wire::NodeControlReply r;
  for (const std::string& name : m.nodes) {
    auto st = control_node(ctx, m, name, caller, now);
    r.results.push_back({name, st.has_value(), st ? std::string() : st.error().message});
  }
  return r;
}

}  // namespace fairway::daemon
