#include "coordinator/daemon/coordinator_service.h"

#include <chrono>

#include <algorithm>
#include <csignal>
#include <ctime>
#include <filesystem>

#include <unistd.h>
#include <unordered_set>

#include "coordinator/daemon/array_rows.h"
#include "coordinator/daemon/job_nodes.h"
#include "coordinator/daemon/job_views.h"
#include "coordinator/daemon/known_nodes.h"
#include "coordinator/daemon/program_mailer.h"
#include "shared/base/log.h"
#include "shared/base/private_files.h"
#include "shared/base/try.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

// For reasons users read in `show job`: UTC, so it reads the same from any login node.
std::string utc_time(Time t) {
  const std::time_t secs = static_cast<std::time_t>(t.seconds());
  std::tm tm{};
  char buf[32];
  if (gmtime_r(&secs, &tm) == nullptr) return std::to_string(t.seconds());
  const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return n == 0 ? std::to_string(t.seconds()) : std::string(buf, n);
}

}  // namespace

CoordinatorService::CoordinatorService(const Config& config, StateDirLock lock,
                                       std::unique_ptr<Scheduler> scheduler, std::unique_ptr<JobStore> store,
                                       std::unique_ptr<ClientAuthenticator> auth,
                                       std::string read_only_because, Time now)
    : config_(config),
      lock_(std::move(lock)),
      scheduler_(std::move(scheduler)),
      store_(std::move(store)),
      rate_limiter_(config.coordinator.submit_burst, config.coordinator.submit_refill_per_s),
      auth_(auth ? std::move(auth) : make_system_authenticator(config.security)),
      probe_(*store_, std::move(read_only_because), now),
      notices_(std::make_unique<ProgramMailer>(config_.coordinator.mail_program), *scheduler_, tracking_) {}

Result<std::unique_ptr<CoordinatorService>> CoordinatorService::open(
    const Config& config, Time now, std::unique_ptr<ClientAuthenticator> auth, std::string read_only_because,
    std::optional<Time> mono) {
  (void)make_private_dir(config.coordinator.state_dir);  // 0700: JobStore::open reports a failure
  FAIRWAY_TRY_ASSIGN(lock, StateDirLock::acquire(config.coordinator.state_dir));
  FAIRWAY_TRY_ASSIGN(store, JobStore::open(config.coordinator.state_dir));
  store->raise_next_job_id(static_cast<std::uint64_t>(config.coordinator.first_job_id));
  const NodeSource source = config.nodes.empty() ? NodeSource::kRegistration : NodeSource::kConfig;
  FAIRWAY_TRY_ASSIGN(scheduler, Scheduler::create(config, source));
  std::unique_ptr<CoordinatorService> s(new CoordinatorService(config, std::move(lock), std::move(scheduler),
                                                               std::move(store), std::move(auth),
                                                               std::move(read_only_because), now));
  s->counters_.started_at = now;
  // The user the coordinator runs as names the reasons it sets itself (Slurm's SlurmUser).
  const net::PeerCredentials self{static_cast<std::uint32_t>(::geteuid()),
                                  static_cast<std::uint32_t>(::getegid()), ::getpid()};
  ReasonSetter system_user{std::to_string(self.uid), self.uid};
  if (auto me = s->auth_->from_kernel(self)) system_user = {me->user, me->uid};
  s->mono_ = mono;  // before recovery: it starts the restored jobs' timeouts
  FAIRWAY_TRY_ASSIGN(recovered,
                     recover_from(*s->store_, s->config_, *s->scheduler_, system_user, now, s->mono(now)));
  s->registry_ = std::move(recovered.nodes);
  s->tokens_ = std::move(recovered.tokens);
  s->tracking_ = std::move(recovered.tracking);
  s->finished_.order() = std::move(recovered.finished_order);
  s->awaiting_nodes_ = std::move(recovered.awaiting_nodes);
  s->stored_drains_ = std::move(recovered.stored_drains);
  s->last_pass_ = now;
  log_event(LogLevel::kInfo, "coordinator_recovered",
            {{"waiting", std::to_string(recovered.waiting)},
             {"running", std::to_string(recovered.running)},
             {"finished", std::to_string(recovered.finished)}});
  return s;
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point began) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

}  // namespace

void CoordinatorService::count_message(const wire::Message& m) {
  const auto type = static_cast<std::size_t>(wire::message_type(m));
  if (type < counters_.messages.size()) ++counters_.messages[type];
}

// ---- Agents -----------------------------------------------------------------------------

void CoordinatorService::on_register(const std::string& peer, const wire::AgentRegister& m, Time now) {
  if (m.node.empty() || m.node != peer) {
    error_reply(
        Channel::kAgents, peer, ErrorCode::kInvalidArgument,
        "AgentRegister.node '" + m.node + "' does not match the connection's identity '" + peer + "'");
    return;
  }
  NodeEntry* n = registry_.find(m.node);
  if (n == nullptr) {
    auto idx = scheduler_->add_node(m.topology);
    if (!idx) {
      log_event(LogLevel::kWarning, "node_refused", {{"node", m.node}, {"error", idx.error().message}});
      error_reply(Channel::kAgents, peer, idx.error().code, idx.error().message);
      return;
    }
    n = &registry_.add(m.node, *idx, m.topology);
    // Remembered, so that a restarted coordinator knows its machine before agents return.
    if (!read_only() && ensure_txn()) {
      (void)write(store_->set_meta(std::string(kKnownNodePrefix) + m.node, known_node_record(m.topology)),
                  "remember node " + m.node, JobId());
    }
    if (auto d = stored_drains_.find(m.node); d != stored_drains_.end()) apply_stored_drain(*n, d->second);
    // Jobs restored from the store that ran on this node can now be placed back.
    for (auto it = awaiting_nodes_.begin(); it != awaiting_nodes_.end();) {
      if (adopt_restored(it->second, *scheduler_, tracking_, finished_.order(), now, mono(now))) {
        it = awaiting_nodes_.erase(it);
      } else {
        ++it;
      }
    }
  } else if (m.topology.total_cores() < n->topology.total_cores() ||
             m.topology.total_gpus() < n->topology.total_gpus() ||
             m.topology.memory_mb < n->topology.memory_mb) {
    // Slurm's rule: a node with less than its config says is not trusted with jobs (its
    // memory is what it offers jobs, after agent.reserved_memory_mb).
    n->drained = true;
    NodeRegistry::set_reason(*n,
                             "registered with " + std::to_string(m.topology.total_cores()) + " cores, " +
                                 std::to_string(m.topology.total_gpus()) + " GPUs and " +
                                 std::to_string(m.topology.memory_mb) + " MiB, the config declares " +
                                 std::to_string(n->topology.total_cores()) + ", " +
                                 std::to_string(n->topology.total_gpus()) + " and " +
                                 std::to_string(n->topology.memory_mb) + " MiB",
                             registry_.system_user(), now);
    log_event(LogLevel::kWarning, "node_drained", {{"node", n->name}, {"reason", n->reason}});
  }
  n->agent_version = m.agent_version;
  n->enforcement = m.enforcement;
  registry_.heard(*n, now, mono(now));
  n->release_jobs_at.reset();  // back before its lease ran out: reconciled below instead
  scheduler_->set_node_up(n->index, NodeRegistry::schedulable(*n));
  agent_seq_.erase(n->name);

  // Reconcile: what the agent runs against what we believe runs there.
  std::unordered_set<std::uint64_t> reported;
  for (const auto& r : m.running) {
    reported.insert(r.job.value());
    const JobRecord* rec = scheduler_->job(r.job);
    auto t = tracking_.find(r.job.value());
    const bool ours = rec != nullptr && rec->state == JobState::kRunning && t != tracking_.end() &&
                      runs_on(rec->allocation, n->index);
    if (ours) {
      t->second.unconfirmed_since.reset();
      continue;
    }
    // Never double-run: whatever we did with it meanwhile (requeued, ended), it stops here.
    log_event(LogLevel::kWarning, "stray_job_killed", {{"job", id_str(r.job)}, {"node", n->name}});
    reply(Channel::kAgents, n->name, wire::SignalJob{r.job, SIGKILL, Duration()});
  }
  for (JobRecord* rec : scheduler_->running()) {
    auto t = tracking_.find(rec->spec.id.value());
    if (t == tracking_.end() || head_node(rec->allocation, scheduler_->cluster()) != n->name) continue;
    if (!reported.contains(rec->spec.id.value()) && !t->second.unconfirmed_since) {
      // Its final report may still be in the agent's resend queue; wait for it a while.
      t->second.unconfirmed_since = mono(now);
    }
  }
  log_event(LogLevel::kInfo, "node_registered",
            {{"node", n->name},
             {"cores", std::to_string(m.topology.total_cores())},
             {"gpus", std::to_string(m.topology.total_gpus())},
             {"running", std::to_string(m.running.size())}});
  reply(Channel::kAgents, n->name, wire::Ack{0});
  dirty_ = true;
}

void CoordinatorService::on_heartbeat(const std::string& peer, const wire::Heartbeat& m, Time now) {
  NodeEntry* n = registry_.find(peer);
  if (n == nullptr || m.node != peer) {
    // An agent we do not know (e.g. after our restart): it must register first.
    error_reply(Channel::kAgents, peer, ErrorCode::kFailedPrecondition,
                "node '" + peer + "' is not registered");
    return;
  }
  if (n->liveness != NodeLiveness::kUp) {
    // Declared down while silent, or known only from the config or the store since our
    // restart: it must register (with its running jobs) before we believe it is up.
    error_reply(
        Channel::kAgents, peer, ErrorCode::kFailedPrecondition,
        "node '" + peer + "' is not registered since it was marked down or we restarted; register again");
    return;
  }
  registry_.heard(*n, now, mono(now));
  // The agent's lease: it stops its jobs when these stop coming.
  reply(Channel::kAgents, peer, wire::HeartbeatReply{m.seq});
}

void CoordinatorService::on_status(const std::string& peer, const wire::JobStatusUpdate& m, Time now) {
  NodeEntry* n = registry_.find(peer);
  if (n == nullptr || m.node != peer || n->liveness == NodeLiveness::kUnknown) {
    error_reply(Channel::kAgents, peer, ErrorCode::kFailedPrecondition,
                "node '" + peer + "' is not registered");
    return;
  }
  registry_.heard(*n, now, mono(now));
  if (read_only()) {
    // Not stored, so not acknowledged: the agent keeps it and sends it again, and the
    // service that reopens once the store takes writes applies it.
    return;
  }
  auto t = tracking_.find(m.job.value());
  const JobRecord* rec = scheduler_->job(m.job);
  if (m.attempt && rec != nullptr && *m.attempt != rec->requeue_count) {
    // About another run of the job (an earlier run's end, resent after an agent restart,
    // while its relaunch runs): acknowledged, so the agent forgets it, and not applied.
    log_event(LogLevel::kWarning, "status_stale_attempt",
              {{"job", id_str(m.job)},
               {"node", n->name},
               {"attempt_expected", std::to_string(rec->requeue_count)},
               {"attempt_got", std::to_string(*m.attempt)},
               {"state", std::string(to_string(m.state))}});
    reply(Channel::kAgents, n->name, wire::Ack{m.seq});
    return;
  }
  const bool ours = t != tracking_.end() && rec != nullptr && rec->state == JobState::kRunning &&
                    head_node(rec->allocation, scheduler_->cluster()) == n->name;
  if (ours) {
    t->second.unconfirmed_since.reset();
    if (is_terminal(m.state)) {
      if (!m.reason.empty()) (void)scheduler_->set_reason(m.job, m.reason);
      job_ended(m.job, m.state, JobOutcome{m.exit_code, m.signal, m.peak_memory_bytes, m.cpu_time_ms}, now);
    }
  } else {
    // A duplicate, or a late report about a job that moved on: acknowledged, not applied.
    log_event(LogLevel::kDebug, "status_ignored",
              {{"job", id_str(m.job)}, {"node", n->name}, {"state", std::string(to_string(m.state))}});
  }
  reply(Channel::kAgents, n->name, wire::Ack{m.seq});
}

void CoordinatorService::job_ended(JobId id, JobState reported, const JobOutcome& outcome, Time now) {
  // The core decides how its end is read (its stop intent, a preemption, a lost node):
  // job_lifecycle.h; the effects say what to store, mail and forget.
  if (on_job_event(id, lifecycle::Reported{reported, outcome}, now)) dirty_ = true;
}

void CoordinatorService::on_timer(Time now) {
  if (probe_.read_only()) {
    // Nothing that would have to be stored (requeues of lost nodes' jobs, passes) happens
    // now: the service that reopens decides with what the store holds.
    probe_.probe(now);
    return;
  }
  finished_.purge_expired(now, *store_, txn_, *scheduler_);
  const Time m = mono(now);
  for (NodeEntry* n : registry_.expire_silent(now, m, config_.coordinator.heartbeat_timeout)) {
    node_lost(*n, now);
  }
  for (const NodeEntry& entry : registry_.nodes()) {
    if (entry.release_jobs_at && *entry.release_jobs_at <= m && entry.liveness != NodeLiveness::kUp) {
      release_jobs_of(*registry_.find(entry.name), now);
    }
  }
  // A job we lost track of in a restart: if its node registered without it, only its
  // final report can still be on the way (a heartbeat timeout is patience enough); if its
  // node has not registered, it may still run there until that agent's lease runs out.
  const Duration lease_out = this->lease_out();
  // The reason says which: a node silent past its lease is lost (as after a heartbeat
  // timeout, and its job may have ended unreported there: the rerun is at-least-once).
  std::vector<std::pair<JobId, std::string>> overdue;
  for (const auto& [id, t] : tracking_) {
    if (!t.unconfirmed_since) continue;
    const std::string head = head_node(*scheduler_, JobId(id));
    const NodeEntry* node = registry_.find(head);
    const bool registered = node != nullptr && node->liveness == NodeLiveness::kUp;
    if (m - *t.unconfirmed_since > (registered ? config_.coordinator.heartbeat_timeout : lease_out)) {
      overdue.emplace_back(JobId(id),
                           registered ? "no report from its node after a restart" : "node " + head + " lost");
    }
  }
  for (const auto& [id, why] : overdue) lose_job(id, why, now);
  notices_.time_limits(now);
  notices_.reap();
  if (now - last_pass_ >= config_.coordinator.pass_interval) dirty_ = true;
  // A time the core asked to be looked at again (a --begin, a reservation's start or end).
  if (recheck_at_ && now >= *recheck_at_) dirty_ = true;
}

// ---- Passes and launches ----------------------------------------------------------------

void CoordinatorService::run_pass(Time now) {
  const auto began = std::chrono::steady_clock::now();
  const PassResult r = scheduler_->schedule(now);
  counters_.pass_seconds.observe(seconds_since(began));
  counters_.last_pass_at = now;
  ++counters_.passes;
  counters_.considered += r.considered;
  counters_.pass_started += r.started.size();
  for (const JobStart& s : r.started) counters_.backfill_started += s.backfilled ? 1 : 0;
  counters_.reservations += r.reservations;
  counters_.last_considered = r.considered;
  counters_.last_started = r.started.size();
  counters_.last_reservations = r.reservations;
  last_pass_ = now;
  recheck_at_ = r.recheck_at;
  for (const ReservationCancellation& c : r.reservations_cancelled) {
    log_event(LogLevel::kWarning, "reservation_cancelled", {{"reservation", c.name}, {"reason", c.reason}});
    // Kept, so that a restarted coordinator neither gives the nodes back to the project
    // nor charges it again.
    if (ensure_txn()) {
      (void)write(
          store_->set_meta(std::string(kReservationCancelledPrefix) + c.name, std::to_string(c.at.seconds())),
          "remember reservation " + c.name + " cancelled", JobId());
    }
  }
  // The core already requeued these (a maintenance window reached a killable job) and
  // freed their cores; their processes must stop before the window.
  for (const JobPreemption& p : r.preempted) {
    JobTracking& t = tracking_[p.id.value()];
    signal_job(p.id, p.allocation, SIGTERM);
    log_event(LogLevel::kWarning, "job_preempted",
              {{"job", std::to_string(p.id.value())},
               {"node", head_node(p.allocation, scheduler_->cluster())},
               {"reason", p.reason}});
    stop_run(t, p.id, member_nodes(p.allocation, scheduler_->cluster()), now);
    persist(p.id);
  }
  // Owner partitions: these keep their cores until their agent reports them gone; then
  // stop_preempted requeues them and the owner starts in that turn's pass.
  for (const PreemptionOrder& p : r.preempting) {
    const JobRecord* victim = scheduler_->job(p.victim);
    (void)scheduler_->set_reason(p.victim, "preempted by job " + id_str(p.by) + " (partition " +
                                               p.by_partition + ") at " + utc_time(now));
    if (victim != nullptr) signal_job(p.victim, victim->allocation, SIGTERM, p.grace);
    ++counters_.preempted;
    log_event(LogLevel::kWarning, "job_preempting",
              {{"job", id_str(p.victim)},
               {"node", head_node(*scheduler_, p.victim)},
               {"by", id_str(p.by)},
               {"partition", p.by_partition},
               {"grace_s", std::to_string(p.grace.count())},
               {"then", p.requeue ? "requeue" : "end"}});
  }
  for (const JobCancellation& c : r.cancelled) {
    // A task made for this pass has no row yet: it gets one, ended, like any job.
    if (const JobRecord* rec = scheduler_->job(c.id); rec != nullptr && rec->spec.is_array_task()) {
      (void)adopt_array_task(context(), c.id);
    }
    mark_terminal(c.id, now);
    log_event(LogLevel::kInfo, "job_cancelled", {{"job", id_str(c.id)}, {"reason", c.reason}});
  }
  for (const JobStart& s : r.started) launch(s.id, now);
}

std::vector<Outgoing> CoordinatorService::end_turn(Time now, bool allow_pass) {
  if (!txn_.stopped()) return {};
  if (dirty_ && allow_pass && !probe_.read_only()) {
    dirty_ = false;
    run_pass(now);
  }
  for (const ArrayJob& a : end_arrays(context(), now)) {
    notices_.array_ended(a);
    // Its entry (a query by its id lists its tasks) ages out with the finished jobs'.
    finished_.ended(a.id());
  }
  // Commit, then reply: a turn whose commit failed answers nothing, and the service stops.
  if (!txn_.commit()) {
    turn_replies_.clear();
    turn_launches_.clear();
    return {};
  }
  std::vector<Outgoing> out = std::move(turn_replies_);
  out.insert(out.end(), std::make_move_iterator(turn_launches_.begin()),
             std::make_move_iterator(turn_launches_.end()));
  turn_replies_.clear();
  turn_launches_.clear();
  // A frame for a node goes only to the connection its key speaks on; one already
  // addressed (a refusal to the connection that asked) keeps its route.
  for (Outgoing& o : out) {
    if (o.channel != Channel::kAgents || !o.route.empty()) continue;
    if (!routes_by_key()) {
      o.route = o.peer;
    } else if (auto r = agent_routes_.route_of(o.peer)) {
      o.route = *r;
    }
  }
  return out;
}

// ---- Replies ----------------------------------------------------------------------------

void CoordinatorService::reply(Channel ch, const std::string& peer, const wire::Message& m) {
  turn_replies_.push_back({ch, peer, wire::encode(m), {}});
}

void CoordinatorService::error_reply(Channel ch, const std::string& peer, ErrorCode code,
                                     std::string message) {
  reply(ch, peer, wire::ErrorReply{code, std::move(message)});
}

}  // namespace fairway::daemon
