// AgentService: a job's lifecycle events handed to NodeJobs (agent/core/node_jobs.h) and
// the actions it returns carried out on the host, its steps (NodeSteps) and its coordinator
// (CoordinatorLink), among them a job's end: its steps' grace (Slurm's completing), what is
// left of it killed, what its cgroup counted read, its cores freed, and its final report.
#include <algorithm>
#include <cassert>
#include <csignal>

#include "agent/daemon/agent_service.h"
#include "agent/daemon/job_usage.h"
#include "shared/base/log.h"

namespace fairway::agent {

void AgentService::dispatch(JobId job, const NodeEvent& event, Time now) {
  carry_out(node_jobs_.apply(event, now), now);
  tidy(job);
}

void AgentService::tidy(JobId job) {
  const NodeJobs::Record* r = node_jobs_.find(job);
  const bool held =
      r != nullptr && (r->phase == NodeJobPhase::kWaitingForCores || r->phase == NodeJobPhase::kLaunching);
  const bool next = r != nullptr && r->next_run_deferred;
  if (!held) held_.erase(job.value());
  if (!next) next_runs_.erase(job.value());
  if (!held && !next) steps_.drop_held(job);
}

void AgentService::carry_out(const std::vector<HostAction>& actions, Time now, Ending* ending) {
  for (const HostAction& a : actions) {
    const bool ends = ending != nullptr && ending->job == a.job;
    switch (a.kind) {
      case HostActionKind::kStartProcess:
        start_launch(a.job, now);
        break;
      case HostActionKind::kStartStep:
        if (auto s = steps_.take_held(a.job, a.step)) {
          if (auto j = jobs_.find(a.job.value()); j != jobs_.end()) {
            steps_.start(*s, j->second.cores, j->second.gpus, j->second.memory_limit);
          }
        }
        break;
      case HostActionKind::kRefuseStep:
        (void)steps_.take_held(a.job, a.step);
        // The client learns it from the missing node: nothing can reach it from here.
        log_event(LogLevel::kWarning, "step_refused",
                  {{"step", id_str(a.job) + "." + std::to_string(a.step)},
                   {"node", node_name()},
                   {"error", "the job does not run here"}});
        break;
      case HostActionKind::kSignal:
        signal_job(a.job, a.signal, a.grace, now);
        break;
      case HostActionKind::kRemoveCgroup:
        if (ends) {
          ending->usage = collect_usage(*host_, a.job, ending->outcome.state, ending->outcome.reason,
                                        ending->run.memory_limit, node_name());
        } else {
          (void)host_->remove_cgroup(a.job);
        }
        break;
      case HostActionKind::kReleaseCores:
        ledger_.release(a.job);
        break;
      case HostActionKind::kReport: {
        std::uint64_t seq = 0;
        if (ends) {
          const Ending& e = *std::exchange(ending, nullptr);
          seq = link_.report_end(e.job, a.attempt, e.outcome, e.usage, now);
        } else {
          seq = link_.report(a.job, a.attempt, a.state, std::nullopt, std::nullopt, now, a.reason);
        }
        (void)node_jobs_.apply(node_event::Reported{a.job, seq}, now);
        break;
      }
      case HostActionKind::kForgetJob:
        if (ends) {
          // It only held the job's cgroup here: the job's end is its first node's to report.
          log_event(LogLevel::kInfo, "job_released", {{"job", id_str(a.job)}, {"node", node_name()}});
          ending = nullptr;
        }
        host_->forget_job(a.job);
        break;
      case HostActionKind::kRetryLaunch:
        retry_launch(a.job, now);
        break;
    }
  }
}

void AgentService::signal_job(JobId job, std::int32_t signal, Duration grace, Time now) {
  auto it = jobs_.find(job.value());
  if (it == jobs_.end()) return;
  if (auto& c = it->second.completing) {
    // Its script is gone, its steps are in their grace: a stop can only shorten it.
    c->kill_at = std::min(c->kill_at, signal == SIGKILL ? now : now + grace);
    press(job, it->second, now);
    return;
  }
  log_event(LogLevel::kInfo, "job_signalled",
            {{"job", id_str(job)}, {"node", node_name()}, {"signal", std::to_string(signal)}});
  apply(it->second.supervisor.on_signal_request(signal, grace, now));
}

void AgentService::finalize(JobId job, const NodeEvent& event, Time now) {
  auto it = jobs_.find(job.value());
  if (it == jobs_.end()) return;
  Ending ending{job, std::move(it->second), {}, {}};
  jobs_.erase(it);
  RunningJob& j = ending.run;
  ending.outcome = j.completing.value_or(RunningJob::Outcome{});
  // The session leader is gone; clean up anything it left behind in its group.
  (void)host_->signal_group(j.supervisor.pgid(), SIGKILL);
  steps_.stop(job);
  const std::vector<HostAction> actions = node_jobs_.apply(event, now);
  assert(!actions.empty() && "NodeJobs holds every job with a process here");
  carry_out(actions, now, &ending);
  tidy(job);
}

void AgentService::on_launch_step(const wire::LaunchStep& s, Time now) {
  // Held for its job: a job not running here yet starts it once it runs (srun starts a
  // step the moment its job starts anywhere); NodeJobs says which.
  steps_.hold(s);
  dispatch(s.job, node_event::StepArrived{s.job, s.step}, now);
}

void AgentService::step_over(JobId job, Time now) {
  auto j = jobs_.find(job.value());
  if (j != jobs_.end() && j->second.completing && steps_.done(job, j->second.supervisor.pgid())) {
    finalize(job, node_event::StepsGone{job}, now);
  }
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
  if (steps_.running(job) == 0 && !others_in_grace) {
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
    steps_.signal(job, SIGTERM);
    (void)host_->signal_group(j.supervisor.pgid(), SIGTERM);
    j.completing->kill_at = now + options_.kill_grace;
  }
  log_event(
      LogLevel::kInfo, "job_completing",
      {{"job", id_str(job)},
       {"node", node_name()},
       {"steps", std::to_string(steps_.running(job))},
       {"kill_in_s", std::to_string(std::max<std::int64_t>(0, (j.completing->kill_at - now).count()))}});
  press(job, j, now);
}

void AgentService::press(JobId job, RunningJob& j, Time now) {
  if (!j.completing || j.completing->killed || now < j.completing->kill_at) return;
  j.completing->killed = true;
  log_event(LogLevel::kInfo, "job_steps_killed",
            {{"job", id_str(job)}, {"node", node_name()}, {"steps", std::to_string(steps_.running(job))}});
  steps_.signal(job, SIGKILL);
  (void)host_->signal_group(j.supervisor.pgid(), SIGKILL);
}

}  // namespace fairway::agent
