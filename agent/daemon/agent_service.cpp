#include "agent/daemon/agent_service.h"

#include <algorithm>
#include <csignal>

#include "agent/daemon/job_usage.h"
#include "shared/base/log.h"
#include "shared/base/try.h"
#include "shared/config/hostlist.h"
#include "shared/wire/codec.h"

namespace fairway::agent {
namespace {

// A killed step's keeper is reaped within moments; past this the job is reported anyway.
constexpr Duration kStepReapPatience = Duration::seconds(10);

}  // namespace

AgentService::AgentService(DiscoveredNode node, AgentOptions options, std::unique_ptr<AgentHost> host)
    : node_(std::move(node)),
      options_(std::move(options)),
      host_(std::move(host)),
      link_(
          wire::AgentRegister{
              node_.topology.name, options_.version, node_.topology, {}, host_->enforcement()},
          options_.heartbeat_interval, options_.coordinator_lease, *host_),
      steps_(node_, options_, *host_),
      node_jobs_(node_.topology.name),
      ledger_(node_.topology) {}

Result<std::unique_ptr<AgentService>> AgentService::start(DiscoveredNode node, AgentOptions options,
                                                          Time now) {
  // A --topology model's cores are not this machine's: nothing to confine them to.
  CgroupOptions cgroups = options.cgroups;
  if (!options.apply_binding) cgroups.mode = "off";
  FAIRWAY_TRY_ASSIGN(
      host, make_system_host(LauncherConfig{options.spool_dir, options.allow_root_jobs, options.kill_grace},
                             kLaunchThreads, cgroups, node.gpus));
  return start(std::move(node), std::move(options), now, std::move(host));
}

Result<std::unique_ptr<AgentService>> AgentService::start(DiscoveredNode node, AgentOptions options, Time now,
                                                          std::unique_ptr<AgentHost> host) {
  if (node.topology.name.empty()) return invalid_argument("the node has no name");
  std::unique_ptr<AgentService> s(new AgentService(std::move(node), std::move(options), std::move(host)));
  if (!s->host_->has_cgroups() && s->options_.require_enforcement) {
    return make_error(ErrorCode::kFailedPrecondition,
                      "[agent] require_enforcement is set, but jobs could only be bound by affinity here (" +
                          s->host_->enforcement() + ")");
  }
  s->readopt(now);
  std::vector<JobId> live;
  for (const auto& [id, j] : s->jobs_) live.push_back(JobId(id));
  s->host_->remove_stale_cgroups(live);
  s->link_.send_register(s->held_jobs(now), now);
  return s;
}

void AgentService::readopt(Time now) {
  CheckpointScan scan = host_->load_checkpoints();
  for (const Error& e : scan.errors) {
    log_event(LogLevel::kWarning, "checkpoint_skipped", {{"node", node_name()}, {"error", e.message}});
  }
  for (const JobCheckpoint& c : scan.live) {
    auto sup = JobSupervisor::launched(c.job, c.pid, c.pgid, c.start, c.time_limit, options_.kill_grace);
    // What already runs is taken as it is: the rule it was placed under is the
    // coordinator's, and refusing it here would abandon a live job.
    if (!sup || !ledger_.acquire(c.job, c.cores, c.gpus, false)) {
      log_event(LogLevel::kError, "readopt_failed", {{"job", id_str(c.job)}, {"node", node_name()}});
      continue;
    }
    // A warning not yet due is armed again; one already due was sent by the agent before
    // (or is lost with it): never sent twice.
    if (c.warn_signal != 0 && now < c.start + c.time_limit - Duration::seconds(c.warn_before_s)) {
      sup->set_warning(c.warn_signal, Duration::seconds(c.warn_before_s), c.warn_batch_only);
    }
    jobs_.emplace(c.job.value(), RunningJob{std::move(*sup), c.cores, c.gpus, true, c.process_start_ticks,
                                            false, std::nullopt, std::nullopt});
    (void)node_jobs_.apply(node_event::Readopted{c.job, c.attempt, c.extern_only, false}, now);
    by_pid_[c.pid] = c.job;
    log_event(LogLevel::kInfo, "job_readopted",
              {{"job", id_str(c.job)}, {"node", node_name()}, {"pid", std::to_string(c.pid)}});
  }
  steps_.readopt(scan, [&](JobId job) { return jobs_.contains(job.value()); });
  for (const JobCheckpoint& c : scan.lost) {
    if (c.extern_only) {
      // It held the cgroup of a job run from another node: nothing to report.
      (void)host_->remove_cgroup(c.job);
      host_->forget_job(c.job);
      continue;
    }
    // It ended while no agent watched. Its keeper recorded how; without a record (the
    // keeper was killed) the exit status is gone and it cannot count as done. Whatever
    // of the job may still run without its keeper is stopped: nothing watches it.
    (void)host_->signal_group(c.pgid, SIGKILL);
    // Its end is reported now, naming its run, and its files kept until the Ack.
    (void)node_jobs_.apply(node_event::Readopted{c.job, c.attempt, false, true}, now);
    auto record = host_->read_exit_record(c.job);
    if (!record) {
      log_event(LogLevel::kWarning, "exit_record_unreadable",
                {{"job", id_str(c.job)}, {"error", record.error().message}});
    }
    std::uint64_t seq = 0;
    JobState away_state = JobState::kFailed;
    std::string away_reason;
    const JobUsage usage = collect_usage(*host_, c.job, away_state, away_reason, std::nullopt, node_name());
    if (record && *record && (*record)->fenced) {
      log_event(LogLevel::kWarning, "job_fenced_while_agent_away",
                {{"job", id_str(c.job)}, {"node", node_name()}});
      seq = link_.report(
          c.job, c.attempt, JobState::kNodeFail, std::nullopt, (*record)->exit.value, now,
          "stopped by its keeper on " + node_name() + ": no agent renewed the coordinator lease");
    } else if (record && *record) {
      const ProcessExit e = (*record)->exit;
      const bool exited = e.kind == ProcessExit::Kind::kExited;
      log_event(LogLevel::kInfo, "job_ended_while_agent_away",
                {{"job", id_str(c.job)},
                 {"node", node_name()},
                 {"exit", (exited ? "code " : "signal ") + std::to_string(e.value)}});
      JobState state = e.succeeded() ? JobState::kCompleted : JobState::kFailed;
      std::string reason;
      if (usage.oom_kills > 0) {
        state = JobState::kOutOfMemory;
        reason = away_reason;
      }
      seq = link_.report(c.job, c.attempt, state, exited ? std::optional(e.value) : std::nullopt,
                         exited ? std::nullopt : std::optional(e.value), now, reason, &usage);
    } else {
      log_event(LogLevel::kWarning, "job_lost", {{"job", id_str(c.job)}, {"node", node_name()}});
      seq = link_.report(c.job, c.attempt, JobState::kFailed, std::nullopt, std::nullopt, now,
                         "its exit status was lost while the agent on " + node_name() + " was down");
    }
    (void)node_jobs_.apply(node_event::Reported{c.job, seq}, now);
  }
}

std::vector<wire::RunningJob> AgentService::held_jobs(Time now) const {
  std::vector<wire::RunningJob> held;
  for (const auto& [id, j] : jobs_) {
    held.push_back({JobId(id), j.cores, j.gpus, j.supervisor.start(), j.supervisor.pid()});
  }
  // Being launched, or waiting for cores a stopping job holds: ours already, though no
  // process is known yet.
  for (const NodeJobPhase phase : {NodeJobPhase::kLaunching, NodeJobPhase::kWaitingForCores}) {
    for (const auto& [id, h] : held_) {
      const NodeJobs::Record* job = node_jobs_.find(JobId(id));
      if (job == nullptr || job->phase != phase) continue;
      held.push_back({JobId(id), h.launch.cores, h.launch.gpus,
                      phase == NodeJobPhase::kLaunching ? h.requested : now, 0});
    }
  }
  return held;
}

void AgentService::on_frame(std::string_view frame, Time now) {
  auto decoded = wire::decode(frame);
  if (!decoded) {
    log_event(LogLevel::kWarning, "bad_coordinator_frame",
              {{"node", node_name()}, {"error", decoded.error().message}});
    return;
  }
  // Only the authenticated coordinator reaches this socket: any frame renews the lease.
  link_.heard();
  if (fenced_) {
    fenced_ = false;
    log_event(LogLevel::kInfo, "coordinator_back", {{"node", node_name()}});
  }
  if (std::holds_alternative<wire::HeartbeatReply>(*decoded)) return;
  if (auto* a = std::get_if<wire::Ack>(&*decoded)) {
    if (a->seq == 0) {
      link_.on_registered(now);
    } else {
      link_.acknowledge(a->seq);
      carry_out(node_jobs_.apply(node_event::AckReceived{a->seq}, now), now);
    }
  } else if (auto* l = std::get_if<wire::LaunchJob>(&*decoded)) {
    on_launch(*l, now);
  } else if (auto* s = std::get_if<wire::SignalJob>(&*decoded)) {
    on_signal(*s, now);
  } else if (auto* t = std::get_if<wire::SetTimeLimit>(&*decoded)) {
    on_set_time_limit(*t);
  } else if (auto* st = std::get_if<wire::LaunchStep>(&*decoded)) {
    on_launch_step(*st, now);
  } else if (auto* g = std::get_if<wire::SendSignal>(&*decoded)) {
    on_send_signal(*g);
  } else if (auto* e = std::get_if<wire::ErrorReply>(&*decoded)) {
    // The coordinator does not know us (it restarted, or declared us down): register again.
    log_event(LogLevel::kWarning, "coordinator_error", {{"node", node_name()}, {"error", e->message}});
    if (e->code == ErrorCode::kFailedPrecondition) {
      link_.on_unknown();
      link_.send_register(held_jobs(now), now);
    }
  } else {
    log_event(LogLevel::kWarning, "unexpected_message",
              {{"node", node_name()}, {"type", std::string(wire::to_string(wire::message_type(*decoded)))}});
  }
}

void AgentService::on_signal(const wire::SignalJob& s, Time now) {
  const NodeJobs::Record* r = node_jobs_.find(s.job);
  // Stopped before its cores came free, or while it waited for the run before it to end:
  // it never ran here.
  if (r != nullptr && (r->phase == NodeJobPhase::kWaitingForCores || r->next_run_deferred)) {
    log_event(LogLevel::kInfo, "launch_dropped", {{"job", id_str(s.job)}, {"node", node_name()}});
  }
  // Being launched: sent once it runs, for a cancel must not be lost to a slow launch. Ended
  // already: its final report is on its way.
  dispatch(s.job, node_event::KillAsked{s.job, s.signal, s.grace}, now);
}

void AgentService::on_send_signal(const wire::SendSignal& m) {
  auto it = jobs_.find(m.job.value());
  if (it == jobs_.end()) return;  // already ended
  const JobSupervisor& sup = it->second.supervisor;
  log_event(LogLevel::kInfo, "job_signalled",
            {{"job", id_str(m.job)},
             {"node", node_name()},
             {"signal", std::to_string(m.signal)},
             {"to", m.batch_only ? "batch script" : "process group"}});
  apply({SupervisorAction{
      m.job, m.batch_only ? SupervisorActionKind::kSignalProcess : SupervisorActionKind::kSignalGroup,
      sup.pgid(), m.signal}});
}

void AgentService::on_set_time_limit(const wire::SetTimeLimit& m) {
  auto it = jobs_.find(m.job.value());
  if (it == jobs_.end()) return;  // already ended
  if (auto st = it->second.supervisor.set_time_limit(m.time_limit); !st) {
    log_event(LogLevel::kWarning, "bad_time_limit", {{"job", id_str(m.job)}, {"error", st.error().message}});
    return;
  }
  // A restarted agent re-adopts the job from its checkpoint: it must hold the new limit.
  auto c = host_->load_checkpoint(m.job);
  if (c) {
    c->time_limit = m.time_limit;
    if (auto st = host_->save_checkpoint(*c); !st) c = std::unexpected(st.error());
  }
  if (!c)
    log_event(LogLevel::kWarning, "checkpoint_failed",
              {{"job", id_str(m.job)}, {"error", c.error().message}});
  log_event(LogLevel::kInfo, "job_time_limit",
            {{"job", id_str(m.job)},
             {"node", node_name()},
             {"time_limit_s", std::to_string(m.time_limit.count())}});
}

void AgentService::apply(const std::vector<SupervisorAction>& actions) {
  for (const auto& a : actions) {
    if (a.kind == SupervisorActionKind::kSignalProcess) {
      // The batch script alone (sbatch --signal=B:...); it leads its group, so pgid is its pid.
      if (auto st = host_->signal_process(a.pgid, a.signal); !st) {
        log_event(LogLevel::kWarning, "signal_failed",
                  {{"job", id_str(a.job)}, {"error", st.error().message}});
      }
      continue;
    }
    // The steps' groups first: srun's tasks hear it from here before srun (in the job's
    // group) can pass it on, and the relay takes srun's copy for the same signal.
    steps_.signal(a.job, a.signal);
    if (auto st = host_->signal_group(a.pgid, a.signal); !st) {
      log_event(LogLevel::kWarning, "signal_failed", {{"job", id_str(a.job)}, {"error", st.error().message}});
    }
  }
}

void AgentService::ended(JobId job, ProcessExit exit, Time now) {
  auto it = jobs_.find(job.value());
  if (it == jobs_.end() || it->second.completing) return;
  RunningJob& j = it->second;
  // Read before on_exit ends the supervisor: a stop under way keeps its SIGKILL time.
  const SupervisorPhase phase = j.supervisor.phase();
  const Time stop_kill_at = j.supervisor.deadline();
  // The keeper's record: the exit status of a job that is not our child (none: its keeper
  // was killed), and whether the keeper stopped it (the agent hung or away).
  auto record = host_->read_exit_record(job);
  const bool recorded = record && record->has_value();
  const bool adopted = j.adopted;
  if (adopted && recorded) exit = (*record)->exit;
  const bool known = !adopted || exit != ProcessExit::signalled(0);
  // Stopped for want of a coordinator, by us or by its keeper: node_fail, so that the
  // coordinator runs it again. Unless it exited 0 on its own (it ended as the fence came):
  // its work is done, and running it again would run it twice.
  const bool fence_came = j.fenced || (recorded && (*record)->fenced);
  const bool finished_anyway = fence_came && known && exit == ProcessExit::exited(0);
  const bool fenced = fence_came && !finished_anyway;
  RunningJob::Outcome o;
  o.state = fenced            ? JobState::kNodeFail
            : finished_anyway ? JobState::kCompleted
                              : j.supervisor.on_exit(exit, now);
  if (fenced) o.reason = "stopped by node " + node_name() + ": no word from the coordinator within the lease";
  if (recorded) {
    o.max_rss_kb = (*record)->max_rss_kb;
    o.cpu_us = (*record)->cpu_us;
  }
  if (!known) {
    // Neither reaped by us nor recorded: the exit status is gone.
  } else if (exit.kind == ProcessExit::Kind::kExited) {
    o.exit_code = exit.value;
  } else {
    o.signal = exit.value;
  }
  by_pid_.erase(j.supervisor.pid());
  wind_down(job, std::move(o), phase, stop_kill_at, now);
}

void AgentService::on_children(Time now) {
  for (const ReapedChild& c : host_->reap()) {
    auto it = by_pid_.find(c.pid);
    if (auto job = steps_.ended(c.pid)) {
      step_over(*job, now);
      continue;
    }
    if (it != by_pid_.end()) {
      ended(it->second, c.exit, now);
    } else {
      // Perhaps the keeper of a job or a step's relay whose launch a worker has not handed
      // back yet (one that ends at once): kept for finish_launch or finish_step_launch.
      unclaimed_exits_[c.pid] = UnclaimedExit{c.exit, now};
    }
  }
  std::erase_if(unclaimed_exits_, [&](const auto& kv) { return now - kv.second.at > Duration::minutes(10); });
}

// The coordinator is silent past the lease: it may declare this node lost and start its
// jobs elsewhere once the lease and the kill grace have passed, so they must be dead by
// then (HTCondor's job lease). TERM now, KILL after the grace, as for a cancel.
void AgentService::fence(Time now) {
  fenced_ = true;
  log_event(LogLevel::kWarning, "self_fencing",
            {{"node", node_name()},
             {"jobs", std::to_string(jobs_.size())},
             {"lease_s", std::to_string(options_.coordinator_lease.count())},
             {"reason", "no word from the coordinator within the lease; stopping every job"}});
  for (auto& [id, j] : jobs_) {
    if (j.fenced) continue;
    j.fenced = true;
    apply(j.supervisor.on_signal_request(SIGTERM, options_.kill_grace, now));
  }
}

void AgentService::on_timer(Time now) {
  link_.start_lease();
  if (!jobs_.empty() && link_.lease_lapsed() &&
      std::any_of(jobs_.begin(), jobs_.end(), [](const auto& kv) { return !kv.second.fenced; })) {
    fence(now);
  }
  if (link_.register_due(now)) link_.send_register(held_jobs(now), now);
  link_.on_timer(now);
  // Re-adopted relays are not our children: their ends are found by polling.
  for (std::int64_t pid : steps_.gone_adopted()) {
    if (auto job = steps_.ended(pid)) step_over(*job, now);
  }
  std::vector<JobId> gone, overdue, done;
  for (auto& [id, j] : jobs_) {
    if (j.completing) {
      press(JobId(id), j, now);
      if (steps_.done(JobId(id), j.supervisor.pgid())) {
        done.push_back(JobId(id));
        continue;
      }
      // Killed, yet a relay's keeper has not been reaped: it is reported without it.
      if (j.completing->killed && now - j.completing->kill_at >= kStepReapPatience)
        overdue.push_back(JobId(id));
      continue;
    }
    if (j.supervisor.deadline() <= now) apply(j.supervisor.on_time(now));
    if (j.adopted && !host_->is_alive(j.supervisor.pid(), j.start_ticks)) {
      gone.push_back(JobId(id));
    }
  }
  for (JobId id : gone) ended(id, ProcessExit::signalled(0), now);
  for (JobId id : done) finalize(id, node_event::StepsGone{id}, now);
  for (JobId id : overdue) {
    log_event(LogLevel::kWarning, "steps_not_reaped",
              {{"job", id_str(id)},
               {"node", node_name()},
               {"reason", "its steps were killed but not reaped; reporting its end"}});
    finalize(id, node_event::StepsGone{id}, now);
  }
}

}  // namespace fairway::agent
