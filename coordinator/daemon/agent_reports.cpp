// The agents' reports: registrations reconciled with what we believe runs on the node,
// heartbeats (the agents' lease), and job status updates applied through the core.
#include "coordinator/daemon/agent_reports.h"

#include <csignal>
#include <unordered_set>

#include "coordinator/daemon/job_nodes.h"
#include "coordinator/daemon/job_tracking.h"
#include "coordinator/daemon/known_nodes.h"
#include "coordinator/daemon/recovered_state.h"
#include "shared/base/log.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {

namespace {

void error_reply(AgentTurn& turn, const std::string& peer, ErrorCode code, std::string message) {
  turn.ctx.service.reply(Channel::kAgents, peer, wire::ErrorReply{code, std::move(message)});
}

}  // namespace

void AgentReports::serve(AgentTurn& turn, const std::string& node, const wire::Message& m) {
  if (auto* r = std::get_if<wire::AgentRegister>(&m)) return on_register(turn, node, *r);
  if (auto* h = std::get_if<wire::Heartbeat>(&m)) return on_heartbeat(turn, node, *h);
  if (auto* u = std::get_if<wire::JobStatusUpdate>(&m)) return on_status(turn, node, *u);
  ++turn.ctx.counters.bad_frames;
  log_event(LogLevel::kWarning, "unexpected_agent_message",
            {{"peer", node}, {"type", std::string(wire::to_string(wire::message_type(m)))}});
}

void AgentReports::on_register(AgentTurn& turn, const std::string& peer, const wire::AgentRegister& m) {
  ServiceContext& ctx = turn.ctx;
  const Time now = turn.now;
  if (m.node.empty() || m.node != peer) {
    error_reply(
        turn, peer, ErrorCode::kInvalidArgument,
        "AgentRegister.node '" + m.node + "' does not match the connection's identity '" + peer + "'");
    return;
  }
  NodeEntry* n = ctx.registry.find(m.node);
  if (n == nullptr) {
    auto idx = ctx.scheduler.add_node(m.topology);
    if (!idx) {
      log_event(LogLevel::kWarning, "node_refused", {{"node", m.node}, {"error", idx.error().message}});
      error_reply(turn, peer, idx.error().code, idx.error().message);
      return;
    }
    n = &ctx.registry.add(m.node, *idx, m.topology);
    // Remembered, so that a restarted coordinator knows its machine before agents return.
    if (!turn.read_only && ctx.service.ensure_txn()) {
      (void)ctx.service.write(
          ctx.store.set_meta(std::string(kKnownNodePrefix) + m.node, known_node_record(m.topology)),
          "remember node " + m.node, JobId());
    }
    if (auto d = stored_drains_.find(m.node); d != stored_drains_.end()) apply_stored_drain(*n, d->second);
    // Jobs restored from the store that ran on this node can now be placed back.
    for (auto it = awaiting_nodes_.begin(); it != awaiting_nodes_.end();) {
      if (adopt_restored(it->second, ctx.scheduler, ctx.tracking, turn.finished, now, turn.mono)) {
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
                             ctx.registry.system_user(), now);
    log_event(LogLevel::kWarning, "node_drained", {{"node", n->name}, {"reason", n->reason}});
  }
  n->agent_version = m.agent_version;
  n->enforcement = m.enforcement;
  ctx.registry.heard(*n, now, turn.mono);
  n->release_jobs_at.reset();  // back before its lease ran out: reconciled below instead
  ctx.scheduler.set_node_up(n->index, NodeRegistry::schedulable(*n));

  // Reconcile: what the agent runs against what we believe runs there.
  std::unordered_set<std::uint64_t> reported;
  for (const auto& r : m.running) {
    reported.insert(r.job.value());
    const JobRecord* rec = ctx.scheduler.job(r.job);
    auto t = ctx.tracking.find(r.job.value());
    const bool ours = rec != nullptr && rec->state == JobState::kRunning && t != ctx.tracking.end() &&
                      runs_on(rec->allocation, n->index);
    if (ours) {
      t->second.unconfirmed_since.reset();
      continue;
    }
    // Never double-run: whatever we did with it meanwhile (requeued, ended), it stops here.
    log_event(LogLevel::kWarning, "stray_job_killed",
              {{"job", std::to_string(r.job.value())}, {"node", n->name}});
    ctx.service.reply(Channel::kAgents, n->name, wire::SignalJob{r.job, SIGKILL, Duration()});
  }
  for (JobRecord* rec : ctx.scheduler.running()) {
    auto t = ctx.tracking.find(rec->spec.id.value());
    if (t == ctx.tracking.end() || head_node(rec->allocation, ctx.scheduler.cluster()) != n->name) continue;
    if (!reported.contains(rec->spec.id.value()) && !t->second.unconfirmed_since) {
      // Its final report may still be in the agent's resend queue; wait for it a while.
      t->second.unconfirmed_since = turn.mono;
    }
  }
  log_event(LogLevel::kInfo, "node_registered",
            {{"node", n->name},
             {"cores", std::to_string(m.topology.total_cores())},
             {"gpus", std::to_string(m.topology.total_gpus())},
             {"running", std::to_string(m.running.size())}});
  ctx.service.reply(Channel::kAgents, n->name, wire::Ack{0});
  ctx.service.changed();
}

void AgentReports::on_heartbeat(AgentTurn& turn, const std::string& peer, const wire::Heartbeat& m) {
  NodeEntry* n = turn.ctx.registry.find(peer);
  if (n == nullptr || m.node != peer) {
    // An agent we do not know (e.g. after our restart): it must register first.
    error_reply(turn, peer, ErrorCode::kFailedPrecondition, "node '" + peer + "' is not registered");
    return;
  }
  if (n->liveness != NodeLiveness::kUp) {
    // Declared down while silent, or known only from the config or the store since our
    // restart: it must register (with its running jobs) before we believe it is up.
    error_reply(
        turn, peer, ErrorCode::kFailedPrecondition,
        "node '" + peer + "' is not registered since it was marked down or we restarted; register again");
    return;
  }
  turn.ctx.registry.heard(*n, turn.now, turn.mono);
  // The agent's lease: it stops its jobs when these stop coming.
  turn.ctx.service.reply(Channel::kAgents, peer, wire::HeartbeatReply{m.seq});
}

void AgentReports::on_status(AgentTurn& turn, const std::string& peer, const wire::JobStatusUpdate& m) {
  ServiceContext& ctx = turn.ctx;
  NodeEntry* n = ctx.registry.find(peer);
  if (n == nullptr || m.node != peer || n->liveness == NodeLiveness::kUnknown) {
    error_reply(turn, peer, ErrorCode::kFailedPrecondition, "node '" + peer + "' is not registered");
    return;
  }
  ctx.registry.heard(*n, turn.now, turn.mono);
  if (turn.read_only) {
    // Not stored, so not acknowledged: the agent keeps it and sends it again, and the
    // service that reopens once the store takes writes applies it.
    return;
  }
  auto t = ctx.tracking.find(m.job.value());
  const JobRecord* rec = ctx.scheduler.job(m.job);
  if (m.attempt && rec != nullptr && *m.attempt != rec->requeue_count) {
    // About another run of the job (an earlier run's end, resent after an agent restart,
    // while its relaunch runs): acknowledged, so the agent forgets it, and not applied.
    log_event(LogLevel::kWarning, "status_stale_attempt",
              {{"job", std::to_string(m.job.value())},
               {"node", n->name},
               {"attempt_expected", std::to_string(rec->requeue_count)},
               {"attempt_got", std::to_string(*m.attempt)},
               {"state", std::string(to_string(m.state))}});
    ctx.service.reply(Channel::kAgents, n->name, wire::Ack{m.seq});
    return;
  }
  const bool ours = t != ctx.tracking.end() && rec != nullptr && rec->state == JobState::kRunning &&
                    head_node(rec->allocation, ctx.scheduler.cluster()) == n->name;
  if (ours) {
    t->second.unconfirmed_since.reset();
    if (is_terminal(m.state)) {
      if (!m.reason.empty()) (void)ctx.scheduler.set_reason(m.job, m.reason);
      // The core decides how its end is read (its stop intent, a preemption, a lost node):
      // job_lifecycle.h; the effects say what to store, mail and forget.
      const JobOutcome outcome{m.exit_code, m.signal, m.peak_memory_bytes, m.cpu_time_ms};
      if (ctx.service.on_job_event(m.job, lifecycle::Reported{m.state, outcome}, turn.now))
        ctx.service.changed();
    }
  } else {
    // A duplicate, or a late report about a job that moved on: acknowledged, not applied.
    log_event(LogLevel::kDebug, "status_ignored",
              {{"job", std::to_string(m.job.value())},
               {"node", n->name},
               {"state", std::string(to_string(m.state))}});
  }
  ctx.service.reply(Channel::kAgents, n->name, wire::Ack{m.seq});
}

}  // namespace fairway::daemon
