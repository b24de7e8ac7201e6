// AgentService: job steps (fairway run). A step's share on this node runs as one relay
// (fairway-step) under a keeper, as the job's user, in the job's cgroup and on its cores;
// the relay forks the tasks and talks to the client itself. The agent only starts it and
// signals it with its job: a step's output never passes through the agent's loop.
#include <algorithm>
#include <csignal>

#include "agent/daemon/agent_service.h"
#include "agent/step/relay_plan.h"
#include "shared/base/log.h"
#include "shared/config/hostlist.h"

namespace fairway::agent {
namespace {

std::string comma_joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

}  // namespace

wire::JobProgram AgentService::holder_program() const {
  wire::JobProgram p;
  p.argv = {options_.step_relay_path, "--hold"};
  p.working_dir = "/";
  p.stdout_path = "/dev/null";
  p.stderr_path = "/dev/null";
  return p;
}

void AgentService::on_launch_step(const wire::LaunchStep& s, Time now) {
  // Held with its job's launch: a job not running here yet starts it once it runs (srun
  // starts a step the moment its job starts anywhere); NodeJobs says which.
  held_[s.job.value()].steps.push_back(s);
  dispatch(s.job, node_event::StepArrived{s.job, s.step}, now);
}

std::optional<wire::LaunchStep> AgentService::take_held_step(JobId job, std::int32_t step) {
  auto h = held_.find(job.value());
  if (h == held_.end()) return std::nullopt;
  auto& steps = h->second.steps;
  auto it =
      std::find_if(steps.begin(), steps.end(), [&](const wire::LaunchStep& s) { return s.step == step; });
  if (it == steps.end()) return std::nullopt;
  wire::LaunchStep s = std::move(*it);
  steps.erase(it);
  return s;
}

void AgentService::start_step(const wire::LaunchStep& s, const RunningJob& job) {
  LaunchRequest req;
  req.job = s.job;
  req.step = s.step;
  req.user = s.user;
  req.uid = s.uid;
  req.gid = s.gid;
  req.node_name = node_name();
  req.nodelist = compress_hostlist(s.nodes);
  req.nnodes = static_cast<std::int32_t>(s.nodes.size());
  req.cores = job.cores;
  req.gpus = job.gpus;
  place_on_node(req, job.cores, job.gpus);
  req.program.argv = {options_.step_relay_path, "--"};
  req.program.argv.insert(req.program.argv.end(), s.argv.begin(), s.argv.end());
  // The relay enters the step's directory itself and tells the client when it cannot.
  req.program.working_dir = "/";
  req.program.stdout_path = "/dev/null";
  req.program.stderr_path = "/dev/null";
  req.program.env = s.env;
  std::string tasks;
  for (std::int32_t t : s.tasks_per_node) tasks += (tasks.empty() ? "" : ",") + std::to_string(t);
  req.program.env.insert(req.program.env.end(),
                         {{kStepEnvAddress, s.io_address},
                          {kStepEnvKey, s.io_key},
                          {kStepEnvJob, std::to_string(s.job.value())},
                          {kStepEnvId, std::to_string(s.step)},
                          {kStepEnvNodeIndex, std::to_string(s.node_index)},
                          {kStepEnvNodes, comma_joined(s.nodes)},
                          {kStepEnvTasks, tasks},
                          {kStepEnvDir, s.working_dir.empty() ? "/" : s.working_dir},
                          {kStepEnvCpusPerTask, std::to_string(s.cpus_per_task)},
                          {kStepEnvGrace, std::to_string(options_.kill_grace.count())}});
  if (s.pty) req.program.env.emplace_back(kStepEnvPty, "1");
  if (!s.cpu_bind.empty()) req.program.env.emplace_back(kStepEnvCpuBind, s.cpu_bind);
  if (!s.distribution.empty()) req.program.env.emplace_back(kStepEnvDistribution, s.distribution);
  if (!s.mpi.empty()) req.program.env.emplace_back(kStepEnvMpi, s.mpi);
  // The job's cores here with their PUs, for the relay to bind each task to its own.
  if (options_.apply_binding) {
    std::string cores;
    for (std::int32_t c : job.cores) {
      // An --exclusive step binds its tasks to the cores it holds (those of the job's).
      if (!s.cores.empty() && std::find(s.cores.begin(), s.cores.end(), c) == s.cores.end()) continue;
      std::string pus;
      for (int pu : node_.core_pus[static_cast<std::size_t>(c)])
        pus += (pus.empty() ? "" : ",") + std::to_string(pu);
      cores += (cores.empty() ? "" : ";") + pus;
    }
    req.program.env.emplace_back(kStepEnvCorePus, cores);
  }
  // The job's own cgroup, found again: the step is held to what the job was given.
  auto attach = host_->prepare_cgroup(cgroup_limits(s.job, req.bind_pus, job.gpus, job.memory_limit));
  if (!attach) {
    log_event(LogLevel::kError, "step_launch_failed",
              {{"step", id_str(s.job) + "." + std::to_string(s.step)},
               {"node", node_name()},
               {"error", attach.error().message}});
    return;
  }
  log_event(LogLevel::kInfo, "step_launching",
            {{"step", id_str(s.job) + "." + std::to_string(s.step)},
             {"node", node_name()},
             {"tasks", std::to_string(s.tasks_per_node[static_cast<std::size_t>(s.node_index)])}});
  host_->launch(std::move(req), std::move(*attach));
}

void AgentService::finish_step_launch(JobId job, std::int32_t step, Result<LaunchedProcess> launched) {
  const std::string id = id_str(job) + "." + std::to_string(step);
  if (!launched) {
    log_event(LogLevel::kError, "step_launch_failed",
              {{"step", id}, {"node", node_name()}, {"error", launched.error().message}});
    return;
  }
  auto it = jobs_.find(job.value());
  if (auto gone = unclaimed_exits_.find(launched->pid); gone != unclaimed_exits_.end()) {
    // It ran and ended (and was reaped) before its launch was handed back: a quick step
    // whose srun already had all it needed. Its job must not wait for it.
    unclaimed_exits_.erase(gone);
    host_->forget_step(job, step);
    (void)host_->signal_group(launched->pgid, SIGKILL);
    log_event(LogLevel::kInfo, "step_ended", {{"step", id}, {"node", node_name()}});
    return;
  }
  steps_[launched->pid] = RunningStep{job, step, launched->pgid};
  if (it == jobs_.end()) {
    // Its job ended while the relay was being started: it ends too.
    (void)host_->signal_group(launched->pgid, SIGKILL);
    return;
  }
  it->second.step_groups.push_back(launched->pgid);
  // A restarted agent must still stop the step with its job and wait for it.
  const StepCheckpoint c{job, step, launched->pid, launched->pgid, host_->start_ticks(launched->pid)};
  if (auto st = host_->save_step_checkpoint(c); !st) {
    log_event(LogLevel::kWarning, "checkpoint_failed", {{"step", id}, {"error", st.error().message}});
  }
  log_event(LogLevel::kInfo, "step_started",
            {{"step", id}, {"node", node_name()}, {"pid", std::to_string(launched->pid)}});
}

bool AgentService::step_ended(std::int64_t pid, Time now) {
  auto s = steps_.find(pid);
  if (s == steps_.end()) return false;
  const RunningStep step = s->second;
  steps_.erase(s);
  host_->forget_step(step.job, step.step);
  (void)host_->signal_group(step.pgid, SIGKILL);
  log_event(LogLevel::kInfo, "step_ended",
            {{"step", id_str(step.job) + "." + std::to_string(step.step)}, {"node", node_name()}});
  if (auto j = jobs_.find(step.job.value()); j != jobs_.end()) {
    std::erase(j->second.step_groups, step.pgid);
    if (steps_done(j->second)) finalize(step.job, node_event::StepsGone{step.job}, now);
  }
  return true;
}

void AgentService::readopt_steps(const CheckpointScan& scan) {
  for (const StepCheckpoint& c : scan.live_steps) {
    const std::string id = id_str(c.job) + "." + std::to_string(c.step);
    auto j = jobs_.find(c.job.value());
    if (j == jobs_.end()) {
      // Its job is gone (it ended while no agent watched): nothing may run on in its place.
      log_event(LogLevel::kWarning, "step_orphaned",
                {{"step", id}, {"node", node_name()}, {"pid", std::to_string(c.pid)}});
      (void)host_->signal_group(c.pgid, SIGKILL);
      host_->forget_step(c.job, c.step);
      continue;
    }
    steps_[c.pid] = RunningStep{c.job, c.step, c.pgid, true, c.process_start_ticks};
    j->second.step_groups.push_back(c.pgid);
    log_event(LogLevel::kInfo, "step_readopted",
              {{"step", id}, {"node", node_name()}, {"pid", std::to_string(c.pid)}});
  }
  // It ended while no agent watched: what srun reported of it stands; its file goes.
  for (const StepCheckpoint& c : scan.lost_steps) host_->forget_step(c.job, c.step);
}

void AgentService::poll_adopted_steps(Time now) {
  std::vector<std::int64_t> gone;
  for (const auto& [pid, s] : steps_) {
    if (s.adopted && !host_->is_alive(pid, s.start_ticks)) gone.push_back(pid);
  }
  for (std::int64_t pid : gone) (void)step_ended(pid, now);
}

// Slurm's completing: a job whose script ended (or was stopped) while srun's tasks still
// run keeps its cores until they end; they get what a cancel gives the script, SIGTERM
// and the grace (the stop's own, when one is under way), then SIGKILL. Without this a
// cancelled job's tasks died at once with their srun, with no time to checkpoint.
void AgentService::wind_down(JobId job, RunningJob::Outcome outcome, SupervisorPhase phase, Time stop_kill_at,
                             Time now) {
  RunningJob& j = jobs_.at(job.value());
  j.completing = std::move(outcome);
  // A stop (scancel, the time limit) signalled the script's whole process group: its other
  // processes get the rest of the grace to finish their handlers, as Slurm waits KillWait
  // after signalling every process of the job; the script's own quick exit does not cut it.
  const bool others_in_grace =
      phase == SupervisorPhase::kTerminating && now < stop_kill_at && host_->group_alive(j.supervisor.pgid());
  if (j.step_groups.empty() && !others_in_grace) {
    return finalize(job, node_event::ProcessExited{job, j.completing->state, false}, now);
  }
  // Completing: a new run waits for this one's end, and launches for its cores wait too.
  (void)node_jobs_.apply(node_event::ProcessExited{job, j.completing->state, true}, now);
  if (phase == SupervisorPhase::kTerminating) {
    j.completing->kill_at = stop_kill_at;  // the stop's signal reached the steps already
  } else if (phase == SupervisorPhase::kKilled) {
    j.completing->kill_at = now;
  } else {
    // The script ended on its own with steps still running (an srun left in the
    // background): they are stopped as the job's end stops them in Slurm.
    for (std::int64_t pgid : j.step_groups) (void)host_->signal_group(pgid, SIGTERM);
    (void)host_->signal_group(j.supervisor.pgid(), SIGTERM);
    j.completing->kill_at = now + options_.kill_grace;
  }
  log_event(
      LogLevel::kInfo, "job_completing",
      {{"job", id_str(job)},
       {"node", node_name()},
       {"steps", std::to_string(j.step_groups.size())},
       {"kill_in_s", std::to_string(std::max<std::int64_t>(0, (j.completing->kill_at - now).count()))}});
  press(job, j, now);
}

bool AgentService::steps_done(const RunningJob& j) {
  // srun itself (in the script's group) may still be passing on another node's output.
  return j.completing && j.step_groups.empty() && !host_->group_alive(j.supervisor.pgid());
}

void AgentService::press(JobId job, RunningJob& j, Time now) {
  if (!j.completing || j.completing->killed || now < j.completing->kill_at) return;
  j.completing->killed = true;
  log_event(LogLevel::kInfo, "job_steps_killed",
            {{"job", id_str(job)}, {"node", node_name()}, {"steps", std::to_string(j.step_groups.size())}});
  for (std::int64_t pgid : j.step_groups) (void)host_->signal_group(pgid, SIGKILL);
  (void)host_->signal_group(j.supervisor.pgid(), SIGKILL);
}

void AgentService::stop_steps(RunningJob& job) {
  for (std::int64_t pgid : job.step_groups) (void)host_->signal_group(pgid, SIGKILL);
  job.step_groups.clear();
}

}  // namespace fairway::agent
