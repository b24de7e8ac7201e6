// AgentService: starting jobs. NodeJobs decides whether a launch starts, waits or is a
// resend; the ledger and the cgroups are prepared on the loop; the launch itself runs on a
// LaunchWorkers thread, and finish_launch supervises what it started (or reports why it
// could not), and NodeJobs says what came for the job meanwhile.
#include <algorithm>
#include <csignal>

#include "agent/daemon/agent_service.h"
#include "agent/daemon/launch_placement.h"
#include "shared/base/log.h"
#include "shared/config/hostlist.h"

namespace fairway::agent {

void AgentService::on_launch(const wire::LaunchJob& l, Time now, bool retry) {
  const std::vector<HostAction> actions =
      node_jobs_.apply(node_event::LaunchAsked{l.job, l.restarts, l.extern_only, retry}, now);
  // Kept for its start (steps may come before it runs here), or, apart from the run here
  // (still launched, running or being stopped), until that run has ended (a requeue that
  // came back to this node).
  const NodeJobs::Record* r = node_jobs_.find(l.job);
  if (!actions.empty()) {
    held_[l.job.value()] = HeldLaunch{l, now};
  } else if (r != nullptr && r->next_run_deferred && r->next_attempt == l.restarts) {
    next_runs_[l.job.value()] = HeldLaunch{l, now};
  }
  carry_out(actions, now);
  tidy(l.job);
}

void AgentService::retry_launch(JobId job, Time now) {
  // The new run whose wait is over (the run before it ended, or never ran) is the held one.
  const NodeJobs::Record* r = node_jobs_.find(job);
  if (auto next = next_runs_.find(job.value());
      next != next_runs_.end() && (r == nullptr || !r->next_run_deferred)) {
    held_[job.value()] = std::move(next->second);
    next_runs_.erase(next);
  }
  auto h = held_.find(job.value());
  if (h == held_.end()) return;
  const wire::LaunchJob l = h->second.launch;
  on_launch(l, now, true);
}

void AgentService::start_launch(JobId job, Time now) {
  const wire::LaunchJob l = held_.at(job.value()).launch;
  if (auto st = ledger_.acquire(l.job, l.cores, l.gpus, l.fence_gpu_sockets); !st) {
    dispatch(l.job, node_event::CoresTaken{l.job, st.error().message}, now);
    if (node_jobs_.find(l.job) != nullptr) {
      log_event(LogLevel::kInfo, "launch_waits",
                {{"job", id_str(l.job)},
                 {"node", node_name()},
                 {"reason", st.error().message + "; a job is still stopping here"}});
    } else {
      log_event(LogLevel::kError, "launch_refused",
                {{"job", id_str(l.job)}, {"node", node_name()}, {"error", st.error().message}});
    }
    return;
  }
  LaunchRequest req = launch_request_from(l, node_name());
  if (l.extern_only) req.program = holder_program(options_.step_relay_path);
  if (!l.nodelist.empty()) {
    req.nodelist = compress_hostlist(l.nodelist);
    req.nnodes = static_cast<std::int32_t>(l.nodelist.size());
  }
  place_on_node(req, l.cores, l.gpus, node_, options_.apply_binding);
  // Its keeper writes the checkpoint as soon as the job runs: an agent killed before it
  // could write one itself still finds the job after a restart.
  req.checkpoint_text = format_checkpoint_without_process(
      JobCheckpoint{l.job, 0, 0, now, l.time_limit, l.cores, l.gpus, 0, l.warn_signal, l.warn_before_s,
                    l.warn_batch_only, l.extern_only, l.restarts});
  auto attach = host_->prepare_cgroup(cgroup_limits(l.job, req.bind_pus, l.gpus, l.memory_limit_bytes,
                                                    options_.max_pids_per_job, node_, *host_));
  if (!attach) {
    log_event(LogLevel::kError, "launch_failed",
              {{"job", id_str(l.job)}, {"node", node_name()}, {"error", attach.error().message}});
    dispatch(l.job, node_event::LaunchDone{l.job, false, attach.error().message}, now);
    return;
  }
  // The launch itself (user lookup, script, fork, the child's chdir and opens) may wait
  // on NSS or NFS: it runs on a worker, and finish_launch takes it from there.
  host_->launch(std::move(req), std::move(*attach));
}

void AgentService::on_launches_done(Time now) {
  for (LaunchWorkers::Done& d : host_->take_launched()) {
    if (d.step) {
      // A relay that ended before its launch was handed back was reaped already.
      const bool reaped = d.result && unclaimed_exits_.erase(d.result->pid) > 0;
      steps_.launched(d.job, *d.step, std::move(d.result), reaped, jobs_.contains(d.job.value()));
      continue;
    }
    finish_launch(d.job, std::move(d.result), now);
  }
}

void AgentService::finish_launch(JobId job, Result<LaunchedProcess> launched, Time now) {
  const NodeJobs::Record* r = node_jobs_.find(job);
  auto held = held_.find(job.value());
  if (r == nullptr || r->phase != NodeJobPhase::kLaunching || held == held_.end()) return;
  const wire::LaunchJob l = held->second.launch;
  if (!launched) {
    log_event(LogLevel::kError, "launch_failed",
              {{"job", id_str(job)}, {"node", node_name()}, {"error", launched.error().message}});
    dispatch(job, node_event::LaunchDone{job, false, launched.error().message}, now);
    return;
  }
  auto sup =
      JobSupervisor::launched(l.job, launched->pid, launched->pgid, now, l.time_limit, options_.kill_grace);
  if (!sup) {
    // Cannot supervise it: do not leave it running unwatched.
    (void)host_->signal_group(launched->pgid, SIGKILL);
    log_event(LogLevel::kError, "launch_failed",
              {{"job", id_str(job)}, {"node", node_name()}, {"error", sup.error().message}});
    dispatch(job, node_event::LaunchDone{job, false, "cannot supervise it: " + sup.error().message}, now);
    return;
  }
  if (l.warn_signal != 0)
    sup->set_warning(l.warn_signal, Duration::seconds(l.warn_before_s), l.warn_batch_only);
  JobCheckpoint c{
      l.job,         launched->pid,   launched->pgid,    now,           l.time_limit, l.cores, l.gpus, 0,
      l.warn_signal, l.warn_before_s, l.warn_batch_only, l.extern_only, l.restarts};
  c.process_start_ticks = host_->start_ticks(launched->pid);
  if (auto st = host_->save_checkpoint(c); !st) {
    log_event(LogLevel::kWarning, "checkpoint_failed",
              {{"job", id_str(l.job)}, {"error", st.error().message}});
  }
  jobs_.emplace(l.job.value(), RunningJob{std::move(*sup), l.cores, l.gpus, false, c.process_start_ticks,
                                          false, l.memory_limit_bytes, std::nullopt});
  by_pid_[launched->pid] = l.job;
  log_event(LogLevel::kInfo, "job_launched",
            {{"job", id_str(l.job)},
             {"node", node_name()},
             {"pid", std::to_string(launched->pid)},
             {"user", l.user},
             {"cores", std::to_string(l.cores.size())}});
  // It runs: reported (unless it only holds a cgroup), and what came while it was being
  // launched follows: a cancel, and its steps.
  dispatch(job, node_event::LaunchDone{job, true, {}}, now);
  // The coordinator lost meanwhile, or its keeper already gone (reaped by on_children
  // before we knew its pid).
  RunningJob& run = jobs_.at(l.job.value());
  if (fenced_ && !run.fenced) {
    run.fenced = true;
    apply(run.supervisor.on_signal_request(SIGTERM, options_.kill_grace, now));
  }
  if (auto gone = unclaimed_exits_.find(launched->pid); gone != unclaimed_exits_.end()) {
    const ProcessExit exit = gone->second.exit;
    unclaimed_exits_.erase(gone);
    ended(l.job, exit, now);
  }
}

}  // namespace fairway::agent
