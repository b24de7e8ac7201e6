// AgentService: starting jobs. The ledger and the cgroups are prepared on the loop; the
// launch itself runs on a LaunchWorkers thread, and finish_launch supervises what it
// started (or reports why it could not), applying whatever came for the job meanwhile.
#include <algorithm>
#include <csignal>

#include "agent/daemon/agent_service.h"
#include "shared/base/log.h"
#include "shared/config/hostlist.h"

namespace fairway::agent {

CgroupLimits AgentService::cgroup_limits(JobId job, const std::vector<std::int32_t>& pus,
                                         const std::vector<std::int32_t>& gpus,
                                         std::optional<std::int64_t> memory_bytes) const {
  CgroupLimits lim;
  lim.job = job;
  lim.cpus = pus;
  lim.memory_bytes = memory_bytes;
  if (options_.max_pids_per_job > 0) lim.max_pids = options_.max_pids_per_job;
  for (std::size_t g = 0; g < gpu_devices_.size(); ++g) {
    if (std::find(gpus.begin(), gpus.end(), static_cast<std::int32_t>(g)) != gpus.end()) continue;
    lim.denied_devices.insert(lim.denied_devices.end(), gpu_devices_[g].begin(), gpu_devices_[g].end());
  }
  return lim;
}

void AgentService::place_on_node(LaunchRequest& req, const std::vector<std::int32_t>& cores,
                                 const std::vector<std::int32_t>& gpus) const {
  for (std::int32_t g : gpus) {
    const auto gi = static_cast<std::size_t>(g);
    req.gpu_visible_ids.push_back(gi < node_.gpus.size() ? node_.gpus[gi].visible_id : std::to_string(g));
  }
  if (!options_.apply_binding) return;
  for (std::int32_t c : cores) {
    for (int pu : node_.core_pus[static_cast<std::size_t>(c)]) req.bind_pus.push_back(pu);
  }
}

void AgentService::retry_waiting_launches(Time now) {
  auto waiting = std::exchange(waiting_for_cores_, {});
  for (const auto& [id, l] : waiting) on_launch(l, now);
}

void AgentService::on_launch(const wire::LaunchJob& l, Time now) {
  // A new run while the last one here is being stopped (a requeue that came back to this
  // node): it starts once that one ended, so that its end is not taken for this run's.
  if (auto j = jobs_.find(l.job.value()); j != jobs_.end() && j->second.stopping) {
    deferred_launches_[l.job.value()] = l;
    return;
  }
  // A resent launch: already running, or being launched.
  if (jobs_.contains(l.job.value()) || launching_.contains(l.job.value()) || waiting_for_cores_.contains(l.job.value())) {
    return;
  }
  // From here on its reports are about this run.
  attempts_[l.job.value()] = l.restarts;
  // A new run of a job whose earlier end is not acknowledged yet: that Ack must not clean
  // up this run's checkpoint.
  std::erase_if(ended_awaiting_ack_, [&](const auto& kv) { return kv.second == l.job; });
  if (auto st = ledger_.acquire(l.job, l.cores, l.gpus, l.fence_gpu_sockets); !st) {
    // The coordinator freed these cores with the end of a job still stopping here (a
    // multi-node job's other node, its steps in their grace): the launch waits for it.
    if (std::any_of(jobs_.begin(), jobs_.end(), [](const auto& kv) { return kv.second.stopping; })) {
      log_event(LogLevel::kInfo, "launch_waits", {{"job", id_str(l.job)}, {"node", node_name()},
                                                  {"reason", st.error().message + "; a job is still stopping here"}});
      waiting_for_cores_.emplace(l.job.value(), l);
      return;
    }
    steps_before_start_.erase(l.job.value());
    log_event(LogLevel::kError, "launch_refused", {{"job", id_str(l.job)}, {"node", node_name()}, {"error", st.error().message}});
    report(l.job, JobState::kFailed, std::nullopt, std::nullopt, now,
           "node " + node_name() + " refused the launch: " + st.error().message);
    return;
  }
  LaunchRequest req = launch_request_from(l, node_name());
  if (l.extern_only) req.program = holder_program();
  if (!l.nodelist.empty()) {
    req.nodelist = compress_hostlist(l.nodelist);
    req.nnodes = static_cast<std::int32_t>(l.nodelist.size());
  }
  place_on_node(req, l.cores, l.gpus);
  // Its keeper writes the checkpoint as soon as the job runs: an agent killed before it
  // could write one itself still finds the job after a restart.
  req.checkpoint_text = format_checkpoint_without_process(JobCheckpoint{
      l.job, 0, 0, now, l.time_limit, l.cores, l.gpus, 0, l.warn_signal, l.warn_before_s, l.warn_batch_only,
      l.extern_only, l.restarts});
  auto attach = cgroups_->prepare(cgroup_limits(l.job, req.bind_pus, l.gpus, l.memory_limit_bytes));
  if (!attach) {
    launch_failed(l.job, attach.error().message, now);
    return;
  }
  // The launch itself (user lookup, script, fork, the child's chdir and opens) may wait
  // on NSS or NFS: it runs on a worker, and finish_launch takes it from there.
  std::vector<wire::LaunchStep> steps;
  if (auto early = steps_before_start_.find(l.job.value()); early != steps_before_start_.end()) {
    steps = std::move(early->second);
    steps_before_start_.erase(early);
  }
  launching_.emplace(l.job.value(), PendingLaunch{l, now, std::nullopt, std::move(steps)});
  host_->launch(std::move(req), std::move(*attach));
}

// Its cores, GPUs and cgroups are free again, and the user learns why (show job).
void AgentService::launch_failed(JobId job, const std::string& why, Time now) {
  steps_before_start_.erase(job.value());
  ledger_.release(job);
  (void)cgroups_->remove(job);
  log_event(LogLevel::kError, "launch_failed", {{"job", id_str(job)}, {"node", node_name()}, {"error", why}});
  report(job, JobState::kFailed, std::nullopt, std::nullopt, now, "launch failed on node " + node_name() + ": " + why);
}

void AgentService::on_launches_done(Time now) {
  for (LaunchWorkers::Done& d : host_->take_launched()) {
    if (d.step) {
      finish_step_launch(d.job, *d.step, std::move(d.result));
      continue;
    }
    auto p = launching_.find(d.job.value());
    if (p == launching_.end()) continue;
    PendingLaunch pending = std::move(p->second);
    launching_.erase(p);
    finish_launch(pending, std::move(d.result), now);
  }
}

void AgentService::finish_launch(const PendingLaunch& pending, Result<LaunchedProcess> launched, Time now) {
  const wire::LaunchJob& l = pending.launch;
  if (!launched) {
    launch_failed(l.job, launched.error().message, now);
    return;
  }
  auto sup = JobSupervisor::launched(l.job, launched->pid, launched->pgid, now, l.time_limit, options_.kill_grace);
  if (!sup) {
    // Cannot supervise it: do not leave it running unwatched.
    (void)host_->signal_group(launched->pgid, SIGKILL);
    ledger_.release(l.job);
    report(l.job, JobState::kFailed, std::nullopt, std::nullopt, now);
    return;
  }
  if (l.warn_signal != 0) sup->set_warning(l.warn_signal, Duration::seconds(l.warn_before_s), l.warn_batch_only);
  JobCheckpoint c{l.job,           launched->pid,     launched->pgid, now,          l.time_limit,
                  l.cores,         l.gpus,            0,              l.warn_signal, l.warn_before_s,
                  l.warn_batch_only, l.extern_only, l.restarts};
  c.process_start_ticks = host_->start_ticks(launched->pid);
  if (auto st = host_->save_checkpoint(c); !st) {
    log_event(LogLevel::kWarning, "checkpoint_failed", {{"job", id_str(l.job)}, {"error", st.error().message}});
  }
  jobs_.emplace(l.job.value(), RunningJob{std::move(*sup), l.cores, l.gpus, false, c.process_start_ticks, false,
                                          l.memory_limit_bytes, {}, l.extern_only, false, std::nullopt});
  by_pid_[launched->pid] = l.job;
  log_event(LogLevel::kInfo, "job_launched",
            {{"job", id_str(l.job)}, {"node", node_name()}, {"pid", std::to_string(launched->pid)},
             {"user", l.user}, {"cores", std::to_string(l.cores.size())}});
  if (!l.extern_only) report(l.job, JobState::kRunning, std::nullopt, std::nullopt, now);
  // What happened while it was being launched: a cancel, the coordinator lost, or its
  // keeper already gone (reaped by on_children before we knew its pid).
  RunningJob& job = jobs_.at(l.job.value());
  if (pending.signal) apply(job.supervisor.on_signal_request(pending.signal->first, pending.signal->second, now));
  if (fenced_ && !job.fenced) {
    job.fenced = true;
    apply(job.supervisor.on_signal_request(SIGTERM, options_.kill_grace, now));
  }
  for (const wire::LaunchStep& s : pending.steps) start_step(s, job);
  if (auto gone = unclaimed_exits_.find(launched->pid); gone != unclaimed_exits_.end()) {
    const ProcessExit exit = gone->second.exit;
    unclaimed_exits_.erase(gone);
    ended(l.job, exit, now);
  }
}

}  // namespace fairway::agent
