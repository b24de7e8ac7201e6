// AgentService: a job's lifecycle events handed to NodeJobs (agent/core/node_jobs.h) and
// the actions it returns carried out on the host, among them a job's end: what is left of
// it killed, what its cgroup counted read, its cores freed, and its final report.
#include <algorithm>
#include <cassert>
#include <csignal>

#include "agent/daemon/agent_service.h"
#include "shared/base/log.h"

namespace fairway::agent {

void AgentService::dispatch(JobId job, const NodeEvent& event, Time now) {
  carry_out(node_jobs_.apply(event, now), now);
  tidy(job);
}

void AgentService::tidy(JobId job) {
  auto h = held_.find(job.value());
  if (h == held_.end()) return;
  const NodeJobs::Record* r = node_jobs_.find(job);
  const bool held = r != nullptr && (r->phase == NodeJobPhase::kWaitingForCores ||
                                     r->phase == NodeJobPhase::kLaunching || r->next_run_deferred);
  if (!held) held_.erase(h);
}

void AgentService::carry_out(const std::vector<HostAction>& actions, Time now, Ending* ending) {
  for (const HostAction& a : actions) {
    const bool ends = ending != nullptr && ending->job == a.job;
    switch (a.kind) {
      case HostActionKind::kStartProcess:
        start_launch(a.job, now);
        break;
      case HostActionKind::kStartStep:
        if (auto s = take_held_step(a.job, a.step)) {
          if (auto j = jobs_.find(a.job.value()); j != jobs_.end()) start_step(*s, j->second);
        }
        break;
      case HostActionKind::kRefuseStep:
        (void)take_held_step(a.job, a.step);
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
          ending->usage =
              collect_usage(a.job, ending->outcome.state, ending->outcome.reason, ending->run.memory_limit);
        } else {
          (void)host_->remove_cgroup(a.job);
        }
        break;
      case HostActionKind::kReleaseCores:
        ledger_.release(a.job);
        break;
      case HostActionKind::kReport: {
        const std::uint64_t seq =
            ends ? report_end(*std::exchange(ending, nullptr), a.attempt, now)
                 : report(a.job, a.attempt, a.state, std::nullopt, std::nullopt, now, a.reason);
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
  stop_steps(j);
  const std::vector<HostAction> actions = node_jobs_.apply(event, now);
  assert(!actions.empty() && "NodeJobs holds every job with a process here");
  carry_out(actions, now, &ending);
  tidy(job);
}

std::uint64_t AgentService::report_end(Ending& ending, std::optional<std::int32_t> attempt, Time now) {
  const RunningJob::Outcome& o = ending.outcome;
  JobUsage& usage = ending.usage;
  // Without a cgroup's count (none here, or v2 without memory.peak), what the keeper saw.
  if (!usage.peak_memory_bytes && o.max_rss_kb) usage.peak_memory_bytes = *o.max_rss_kb * 1024;
  if (!usage.cpu_time_ms && o.cpu_us) usage.cpu_time_ms = *o.cpu_us / 1000;
  log_event(LogLevel::kInfo, "job_exited",
            {{"job", id_str(ending.job)},
             {"node", node_name()},
             {"state", std::string(to_string(o.state))},
             {"exit_code", o.exit_code ? std::to_string(*o.exit_code) : std::string("-")},
             {"signal", o.signal ? std::to_string(*o.signal) : std::string("-")}});
  return report(ending.job, attempt, o.state, o.exit_code, o.signal, now, o.reason, &usage);
}

}  // namespace fairway::agent
