// CoordinatorService: what users ask through the `fairway` CLI (submit, queue, show,
// cancel, hold, release, requeue, nodes). Replies leave only after the turn commits.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <map>

#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/cluster_reports.h"
#include "coordinator/daemon/config_report.h"
#include "coordinator/daemon/job_nodes.h"
#include "coordinator/daemon/reservation_report.h"
#include "coordinator/daemon/job_views.h"
#include "shared/base/log.h"
#include "shared/wire/codec.h"
#include "shared/base/try.h"

namespace fairway::daemon {

// Who asks is proven before anything is read from the request: by MUNGE when the request
// comes wrapped in a credential, else by the kernel for a local client; the user names a
// request carries are never believed.
void CoordinatorService::on_client_frame(const std::string& peer, std::string_view frame, Time now,
                                         const std::optional<net::PeerCredentials>& kernel) {
  auto decoded = wire::decode(frame);
  if (!decoded) {
    ++counters_.bad_frames;
    error_reply(Channel::kClients, peer, decoded.error().code, decoded.error().message);
    return;
  }
  count_message(*decoded);
  auto refuse = [&](const Error& e) {
    ++counters_.unauthenticated;
    log_event(LogLevel::kWarning, "client_refused", {{"peer_uid", kernel ? std::to_string(kernel->uid) : ""},
                                                      {"error", e.message}});
    error_reply(Channel::kClients, peer, ErrorCode::kPermissionDenied, "unauthenticated request: " + e.message);
  };
  if (const auto* a = std::get_if<wire::AuthenticatedRequest>(&*decoded)) {
    auto caller = auth_->from_munge(a->credential, a->request);
    if (!caller) return refuse(caller.error());
    auto inner = wire::decode(a->request);
    if (!inner || std::holds_alternative<wire::AuthenticatedRequest>(*inner)) {
      ++counters_.bad_frames;
      error_reply(Channel::kClients, peer, ErrorCode::kInvalidArgument,
                  inner ? "an AuthenticatedRequest may not wrap another" : inner.error().message);
      return;
    }
    count_message(*inner);
    return serve_client(peer, *inner, *caller, now);
  }
  if (!kernel) {
    return refuse(Error{ErrorCode::kPermissionDenied,
                        "a client that is not on the coordinator's host must send a MUNGE "
                        "credential (is munged running there?)"});
  }
  auto caller = auth_->from_kernel(*kernel);
  if (!caller) return refuse(caller.error());
  serve_client(peer, *decoded, *caller, now);
}

void CoordinatorService::serve_client(const std::string& peer, const wire::Message& msg,
                                      const Caller& caller, Time now) {
  // Palmetto (seed 004) counts every request of a user, not only submissions: queries and
  // controls take a token from the same bucket (submissions take one per job below).
  // Root and admins are not limited, so that monitoring and recovery always get through.
  const bool submit = std::holds_alternative<wire::SubmitRequest>(msg) ||
                      std::holds_alternative<wire::SubmitBatch>(msg);
  if (!submit && !caller.admin && !rate_limiter_.try_take(caller.user, now)) {
    ++counters_.refused;
    ++counters_.rate_limited;
    const Error e = rate_limited(caller.user, "request", now);
    error_reply(Channel::kClients, peer, e.code, e.message);
    return;
  }
  const bool changes_state = submit || std::holds_alternative<wire::JobControl>(msg) ||
                             std::holds_alternative<wire::JobUpdate>(msg) ||
                             std::holds_alternative<wire::NodeControl>(msg);
  if (changes_state && !read_only_.empty()) {
    ++counters_.refused;
    error_reply(Channel::kClients, peer, ErrorCode::kUnavailable,
                "the coordinator cannot write its job store (" + read_only_ +
                    "): it accepts no new work and changes no job until it can; queries still work. "
                    "Nothing already accepted is lost.");
    return;
  }
  if (auto* m = std::get_if<wire::SubmitRequest>(&msg)) return on_submit(peer, *m, caller, now);
  if (auto* m = std::get_if<wire::SubmitBatch>(&msg)) return on_submit_batch(peer, *m, caller, now);
  if (auto* m = std::get_if<wire::JobQuery>(&msg)) return on_job_query(peer, *m, caller, now);
  if (auto* m = std::get_if<wire::JobControl>(&msg)) return on_job_control(peer, *m, caller, now);
  if (auto* m = std::get_if<wire::JobUpdate>(&msg)) return on_job_update(peer, *m, caller);
  if (auto* m = std::get_if<wire::NodeQuery>(&msg)) return on_node_query(peer, *m, caller, now);
  if (auto* m = std::get_if<wire::NodeControl>(&msg)) return on_node_control(peer, *m, caller, now);
  if (auto* m = std::get_if<wire::StepRequest>(&msg)) return on_step_request(peer, *m, caller, now);
  if (auto* m = std::get_if<wire::StepEnded>(&msg)) return on_step_ended(peer, *m, caller, now);
  const ReportSources sources{*scheduler_, registry_, counters_, now};
  if (std::holds_alternative<wire::MetricsQuery>(msg)) {
    return reply(Channel::kClients, peer, metrics_report(sources, !config_.security.private_data || caller.admin));
  }
  // Anyone may read the settings, as anyone may run scontrol show config: none is secret.
  if (std::holds_alternative<wire::ConfigQuery>(msg)) return reply(Channel::kClients, peer, config_report(config_, now));
  if (auto* m = std::get_if<wire::PartitionQuery>(&msg)) {
    auto r = partition_report(sources, *m);
    if (!r) return error_reply(Channel::kClients, peer, r.error().code, r.error().message);
    return reply(Channel::kClients, peer, *r);
  }
  if (auto* m = std::get_if<wire::ReservationQuery>(&msg)) {
    auto r = reservation_report(*scheduler_, *m, now);
    if (!r) return error_reply(Channel::kClients, peer, r.error().code, r.error().message);
    return reply(Channel::kClients, peer, *r);
  }
  if (auto* m = std::get_if<wire::SharesQuery>(&msg)) {
    // As sshare under PrivateData=usage: a user sees their own usage and their accounts'.
    const bool private_usage = config_.security.private_data && !caller.admin;
    return reply(Channel::kClients, peer,
                 shares_report(sources, *m, private_usage || m->callers_own ? std::optional(caller.user) : std::nullopt));
  }
  ++counters_.bad_frames;
  error_reply(Channel::kClients, peer, ErrorCode::kInvalidArgument,
              "unexpected message " + std::string(wire::to_string(wire::message_type(msg))) +
                  " on the client channel");
}

bool CoordinatorService::owns(const Caller& caller, const JobSpec& spec) {
  return spec.uid ? *spec.uid == caller.uid : spec.user == caller.user;
}

std::string CoordinatorService::default_account(const std::string& user) const {
  for (const auto& a : config_.accounts) {
    if (std::find(a.users.begin(), a.users.end(), user) != a.users.end()) return a.name;
  }
  return "default";
}

Status CoordinatorService::check_account(const std::string& account, const std::string& user,
                                         const Caller& caller) const {
  // A site that declares its accounts bills every job to one of them; one that declares
  // none runs everything under "default" or whatever the user names.
  if (config_.accounts.empty()) return ok_status();
  std::string names;
  for (const auto& a : config_.accounts) {
    if (a.name == account) {
      const bool member = a.users.empty() ||
                          std::find(a.users.begin(), a.users.end(), user) != a.users.end();
      if (member || caller.admin) return ok_status();
      return make_error(ErrorCode::kPermissionDenied,
                        "account '" + account + "': user '" + user + "' is not one of its users");
    }
    names += (names.empty() ? "" : ", ") + a.name;
  }
  return invalid_argument("account '" + account + "' is not a known account (accounts: " + names + ")");
}

Status CoordinatorService::check_dependencies_visible(const JobSpec& spec, const Caller& caller) const {
  // With private_data, whether another user's job ended well is theirs to know: a
  // dependency on it would tell (afterok vs afternotok). Named as "does not exist", as a
  // query of that job would be.
  if (!config_.security.private_data || caller.admin) return ok_status();
  for (const DependencyClause& c : spec.dependencies) {
    for (JobId id : c.jobs) {
      std::string owner;
      if (const JobRecord* rec = scheduler_->job(id)) {
        owner = rec->spec.user;
      } else if (auto t = tracking_.find(id.value()); t != tracking_.end() && t->second.final_view) {
        owner = t->second.final_view->user;
      }
      if (!owner.empty() && owner != caller.user) {
        return invalid_argument("--dependency names job " + id_str(id) + ", which does not exist");
      }
    }
  }
  return ok_status();
}

Result<JobId> CoordinatorService::accept_submit(const wire::SubmitRequest& m, const Caller& caller,
                                                Time now) {
  const std::string& user = caller.user;
  FAIRWAY_TRY(check_named_user(m, caller));
  // A retried submit (the reply was lost) gets the job the first attempt made.
  if (auto first = tokens_.find(user, m.client_token, now)) return *first;
  FAIRWAY_TRY(check_submission(m, caller, now));
  if (!ensure_txn()) return make_error(ErrorCode::kIo, "the job store is unavailable");
  // A job array takes its own id and one per task (task ids follow the array's).
  const std::uint64_t ids = 1 + static_cast<std::uint64_t>(m.spec.array.count());
  FAIRWAY_TRY_ASSIGN(id, store_->allocate_job_id(ids));

  wire::SubmitRequest stored = m;
  stored.spec = submission_spec(m, caller, now);
  stored.spec.id = id;
  if (auto st = check_account(stored.spec.account, user, caller); !st) {
    store_->return_job_id(id, ids);
    return std::unexpected(st.error());
  }
  if (auto st = scheduler_->submit(stored.spec, now, access_groups(caller.user, caller.gid)); !st) {
    // The core names the job by the id it would have had; a refused job has none.
    store_->return_job_id(id, ids);
    Error e = st.error();
    const std::string prefix = "job " + std::to_string(id.value()) + ": ";
    if (e.message.starts_with(prefix)) e.message.erase(0, prefix.size());
    return std::unexpected(e);
  }
  // The core may have filled in the partition and QOS defaults: store what it decided.
  const JobRecord* admitted = scheduler_->job(id);
  stored.spec = admitted != nullptr ? admitted->spec : scheduler_->array(id)->prototype.spec;

  StoredJob s;
  s.id = id;
  s.user = user;
  s.client_token = m.client_token;
  s.request = encode_stored_request(stored);
  s.state = stored.spec.hold ? JobState::kHeld : JobState::kPending;
  s.submit_time = now;
  if (auto st = store_->insert_job(s); !st) {
    (void)scheduler_->cancel(id, now);
    scheduler_->forget(id);
    return std::unexpected(st.error());
  }
  JobTracking& t = tracking_[id.value()];
  t.array = !stored.spec.array.empty();
  t.working_dir = m.program.working_dir;
  t.stdout_path = m.program.stdout_path;
  t.stderr_path = m.program.stderr_path;
  tokens_.remember(user, m.client_token, id, now);
  ++counters_.submitted;
  dirty_ = true;
  log_event(LogLevel::kInfo, "job_submitted",
            {{"job", id_str(id)}, {"user", user}, {"partition", stored.spec.partition},
             {"cores", std::to_string(stored.spec.resources.total_cores())}});
  if (!stored.spec.array.empty()) {
    log_event(LogLevel::kInfo, "array_submitted", {{"job", id_str(id)}, {"tasks", format_array_spec(stored.spec.array)}});
  }
  return id;
}

void CoordinatorService::on_submit(const std::string& peer, const wire::SubmitRequest& m,
                                   const Caller& caller, Time now) {
  if (m.test_only) {
    auto estimate = estimate_submit(m, caller, now);
    if (!estimate) {
      error_reply(Channel::kClients, peer, estimate.error().code, estimate.error().message);
      return;
    }
    reply(Channel::kClients, peer, *estimate);
    return;
  }
  auto id = accept_submit(m, caller, now);
  if (!id) {
    ++counters_.refused;
    log_event(LogLevel::kInfo, "submit_refused", {{"user", caller.user}, {"error", id.error().message}});
    error_reply(Channel::kClients, peer, id.error().code, id.error().message);
    return;
  }
  reply(Channel::kClients, peer, wire::SubmitReply{.job = *id});
}

void CoordinatorService::on_submit_batch(const std::string& peer, const wire::SubmitBatch& m,
                                         const Caller& caller, Time now) {
  wire::SubmitBatchReply r;
  r.results.reserve(m.requests.size());
  for (const auto& req : m.requests) {
    if (req.test_only) {
      r.results.push_back({std::nullopt, "--test-only is answered for one submission at a time, not in a batch"});
      continue;
    }
    auto id = accept_submit(req, caller, now);
    if (id) {
      r.results.push_back({*id, {}});
    } else {
      ++counters_.refused;
      r.results.push_back({std::nullopt, id.error().message});
    }
  }
  reply(Channel::kClients, peer, r);
}

Result<const JobRecord*> CoordinatorService::live_job_for(JobId id, const Caller& caller) const {
  const JobRecord* rec = scheduler_->job(id);
  auto t = tracking_.find(id.value());
  const bool hidden = config_.security.private_data && !caller.admin && rec != nullptr &&
                      !owns(caller, rec->spec);
  if (t == tracking_.end() || hidden) {
    return make_error(ErrorCode::kNotFound, "job " + id_str(id) + " does not exist");
  }
  if (rec == nullptr || is_terminal(rec->state)) {
    const JobState s = t->second.final_view ? t->second.final_view->state : JobState::kCompleted;
    return make_error(ErrorCode::kFailedPrecondition,
                      "job " + id_str(id) + " has already ended (" + std::string(to_string(s)) + ")");
  }
  // Root and the admin group may act on any job, others on their own.
  if (!caller.admin && !owns(caller, rec->spec)) {
    return make_error(ErrorCode::kPermissionDenied,
                      "job " + id_str(id) + " belongs to '" + rec->spec.user + "', not '" + caller.user + "'");
  }
  return rec;
}

namespace {

// Who cancelled a job, by name and uid: sacct's "CANCELLED by UID" is read from it.
std::string cancel_reason(const Caller& caller) {
  return "cancelled by " + caller.user + " (uid " + std::to_string(caller.uid) + ")";
}

}  // namespace

Status CoordinatorService::control_one(const wire::JobControl& m, JobId id, const Caller& caller, Time now) {
  const wire::JobAction action = m.action;
  const std::string& user = caller.user;
  FAIRWAY_TRY_ASSIGN(found, live_job_for(id, caller));
  const JobRecord* rec = found;
  const bool running = rec->state == JobState::kRunning || rec->state == JobState::kCompleting;
  switch (action) {
    case wire::JobAction::kCancel:
      if (running) {
        (void)on_job_event(id, lifecycle::CancelAsked{cancel_reason(caller)}, now);
        log_event(LogLevel::kInfo, "job_cancel_requested", {{"job", id_str(id)}, {"node", head_node(rec->allocation, scheduler_->cluster())}});
        return ok_status();
      }
      FAIRWAY_TRY(scheduler_->cancel(id, now));
      (void)scheduler_->set_reason(id, cancel_reason(caller));
      mark_terminal(id, now);
      log_event(LogLevel::kInfo, "job_cancelled", {{"job", id_str(id)}, {"by", user}});
      break;
    case wire::JobAction::kEndAllocation:
      if (!rec->spec.interactive) {
        return make_error(ErrorCode::kFailedPrecondition,
                          "job " + id_str(id) + " is a batch job: its script's exit says how it ended");
      }
      if (running) {
        (void)on_job_event(id, lifecycle::AllocationEnded{m.exit_code, m.signal}, now);
        log_event(LogLevel::kInfo, "allocation_end_requested",
                  {{"job", id_str(id)}, {"exit_code", std::to_string(m.exit_code)}, {"by", user}});
        return ok_status();
      }
      // Still waiting: nothing ran, so it ends as a cancel does.
      FAIRWAY_TRY(scheduler_->cancel(id, now));
      (void)scheduler_->set_reason(id, cancel_reason(caller));
      mark_terminal(id, now);
      break;
    case wire::JobAction::kHold:
      FAIRWAY_TRY(scheduler_->hold(id));
      persist(id);
      break;
    case wire::JobAction::kRelease:
      FAIRWAY_TRY(scheduler_->release(id, now));
      persist(id);
      break;
    case wire::JobAction::kRequeue:
      if (!running) {
        return make_error(ErrorCode::kFailedPrecondition, "job " + id_str(id) + " is " +
                                                              std::string(to_string(rec->state)) +
                                                              ", only running jobs can be requeued");
      }
      (void)on_job_event(id, lifecycle::RequeueAsked{}, now);
      break;
    case wire::JobAction::kSignal:
      // scancel --signal: the job runs on; only a running job has processes to tell.
      if (!running || rec->allocation.empty()) {
        return make_error(ErrorCode::kFailedPrecondition, "job " + id_str(id) + " is " +
                                                              std::string(to_string(rec->state)) +
                                                              ": only a running job can be signalled");
      }
      reply(Channel::kAgents, head_node(rec->allocation, scheduler_->cluster()), wire::SendSignal{id, m.signal, m.batch_only});
      // Its steps' tasks on the other nodes too (the batch script runs on the first alone).
      if (!m.batch_only) {
        for (const std::string& node : member_nodes(rec->allocation, scheduler_->cluster())) reply(Channel::kAgents, node, wire::SendSignal{id, m.signal, false});
      }
      log_event(LogLevel::kInfo, "job_signal_sent", {{"job", id_str(id)}, {"node", head_node(rec->allocation, scheduler_->cluster())},
                                                     {"signal", std::to_string(m.signal)}, {"by", user}});
      return ok_status();
  }
  dirty_ = true;
  return ok_status();
}

void CoordinatorService::on_job_control(const std::string& peer, const wire::JobControl& m,
                                        const Caller& caller, Time now) {
  wire::JobControlReply r;
  for (JobId id : m.jobs) {
    auto st = scheduler_->array(id) != nullptr ? control_array(m, id, caller, now) : control_one(m, id, caller, now);
    r.results.push_back(wire::control_result(id, st));
  }
  for (std::size_t i = 0; i < m.task_arrays.size() && i < m.task_indices.size(); ++i) {
    auto task = array_task_for(m.task_arrays[i], m.task_indices[i], caller);
    Status st = task ? control_one(m, *task, caller, now) : status_of(task);
    r.results.push_back(wire::control_result(task ? *task : m.task_arrays[i], st));
  }
  reply(Channel::kClients, peer, r);
}

void CoordinatorService::on_node_query(const std::string& peer, const wire::NodeQuery& m, const Caller& caller,
                                       Time) {
  // Under private_data a user sees only their own jobs on a node, as in `queue`.
  const bool own_only = config_.security.private_data && !caller.admin;
  std::map<std::uint32_t, std::vector<JobId>> jobs_on;
  for (const JobRecord* rec : scheduler_->running()) {
    if (own_only && !owns(caller, rec->spec)) continue;
    for (const auto& na : rec->allocation.nodes) jobs_on[na.node.value()].push_back(rec->spec.id);
  }
  for (const std::string& name : m.nodes) {
    if (registry_.find(name) == nullptr) {
      error_reply(Channel::kClients, peer, ErrorCode::kNotFound, "node '" + name + "' does not exist");
      return;
    }
  }
  wire::NodeQueryReply r;
  for (const NodeEntry& n : registry_.nodes()) {
    if (!m.nodes.empty() && std::find(m.nodes.begin(), m.nodes.end(), n.name) == m.nodes.end()) continue;
    r.nodes.push_back(node_view(n, scheduler_->cluster(), jobs_on[n.index.value()]));
  }
  reply(Channel::kClients, peer, r);
}

Status CoordinatorService::control_node(const wire::NodeControl& m, const std::string& name,
                                        const Caller& caller, Time now) {
  NodeEntry* n = registry_.find(name);
  if (n == nullptr) return make_error(ErrorCode::kNotFound, "node '" + name + "' does not exist");
  const bool drain = m.action == wire::NodeAction::kDrain;
  if (!ensure_txn()) return make_error(ErrorCode::kIo, "the job store is unavailable");
  NodeAdminState stored{name, drain, {}, {}, {}, {}};
  if (drain) {
    stored.reason = m.reason;
    stored.by_user = caller.user;
    stored.by_uid = caller.uid;
    stored.at = now;
  }
  if (!write(store_->set_node_admin_state(stored), "set_node_admin_state", JobId())) {
    return make_error(ErrorCode::kIo, "node '" + name + "': the change could not be stored");
  }
  n->drained = drain;
  if (drain) {
    NodeRegistry::set_reason(*n, m.reason, {caller.user, caller.uid}, now);
  } else if (n->liveness == NodeLiveness::kUp) {
    NodeRegistry::clear_reason(*n);
  }
  // Drained: running jobs finish, nothing new starts (the core withholds its free cores).
  scheduler_->set_node_up(n->index, NodeRegistry::schedulable(*n));
  log_event(LogLevel::kInfo, drain ? "node_drained" : "node_resumed",
            {{"node", name}, {"by", caller.user}, {"reason", m.reason}});
  dirty_ = true;
  return ok_status();
}

void CoordinatorService::on_node_control(const std::string& peer, const wire::NodeControl& m,
                                         const Caller& caller, Time now) {
  if (!caller.admin) {
    error_reply(Channel::kClients, peer, ErrorCode::kPermissionDenied,
                "only root and the admin group may drain or resume nodes, not '" + caller.user + "'");
    return;
  }
  if (m.action == wire::NodeAction::kDrain && m.reason.empty()) {
    error_reply(Channel::kClients, peer, ErrorCode::kInvalidArgument, "a drain needs a reason (--reason)");
    return;
  }
  wire::NodeControlReply r;
  for (const std::string& name : m.nodes) {
    auto st = control_node(m, name, caller, now);
    r.results.push_back({name, st.has_value(), st ? std::string() : st.error().message});
  }
  reply(Channel::kClients, peer, r);
}

}  // namespace fairway::daemon
