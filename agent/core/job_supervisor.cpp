#include "agent/core/job_supervisor.h"

#include <csignal>
#include <string>

namespace fairway::agent {

Result<JobSupervisor> JobSupervisor::launched(JobId job, std::int64_t pid, std::int64_t pgid, Time start,
                                              Duration time_limit, Duration grace) {
  const std::string who = "job " + std::to_string(job.value()) + ": ";
  if (pid <= 0) return invalid_argument(who + "pid " + std::to_string(pid) + " is not positive");
  if (pgid <= 0) {
    return invalid_argument(who + "pgid " + std::to_string(pgid) + " is not positive");
  }
  if (time_limit <= Duration::seconds(0)) {
    return invalid_argument(who + "time_limit " + std::to_string(time_limit.count()) + " s is not positive");
  }
  if (grace < Duration::seconds(0)) {
    return invalid_argument(who + "grace " + std::to_string(grace.count()) + " s is negative");
  }
  JobSupervisor s;
  s.job_ = job;
  s.pid_ = pid;
  s.pgid_ = pgid;
  s.start_ = start;
  s.time_limit_ = time_limit;
  s.grace_ = grace;
  return s;
}

// Time here is whole seconds, and the TERM may go out late in second `now`: the KILL waits
// for the second after now + grace, so a job always gets at least its full grace (measured:
// 29.3 s of a 30 s grace before this). A zero grace stays immediate.
Time JobSupervisor::kill_time(Time now, Duration grace) {
  return grace > Duration::seconds(0) ? now + grace + Duration::seconds(1) : now;
}

SupervisorAction JobSupervisor::signal_action(std::int32_t signal) const {
  return SupervisorAction{job_, SupervisorActionKind::kSignalGroup, pgid_, signal};
}

void JobSupervisor::set_warning(std::int32_t signal, Duration before, bool batch_only) {
  warn_signal_ = signal;
  warn_before_ = before < Duration::seconds(0) ? Duration::seconds(0) : before;
  warn_batch_only_ = batch_only;
  warned_ = false;
}

Status JobSupervisor::set_time_limit(Duration time_limit) {
  if (time_limit <= Duration()) {
    return invalid_argument("time_limit must be positive, got " + std::to_string(time_limit.count()) + " s");
  }
  if (phase_ == SupervisorPhase::kRunning) time_limit_ = time_limit;
  return ok_status();
}

Time JobSupervisor::deadline() const {
  switch (phase_) {
    case SupervisorPhase::kRunning:
      if (warn_signal_ != 0 && !warned_) return min(warn_at(), walltime_end());
      return walltime_end();
    case SupervisorPhase::kTerminating:
      return kill_at_;
    case SupervisorPhase::kKilled:
    case SupervisorPhase::kEnded:
      return Time::never();
  }
  return Time::never();
}

std::vector<SupervisorAction> JobSupervisor::on_time(Time now) {
  std::vector<SupervisorAction> actions;
  if (phase_ == SupervisorPhase::kRunning && warn_signal_ != 0 && !warned_ && now >= warn_at()) {
    warned_ = true;
    actions.push_back(SupervisorAction{
        job_, warn_batch_only_ ? SupervisorActionKind::kSignalProcess : SupervisorActionKind::kSignalGroup,
        pgid_, warn_signal_});
  }
  if (phase_ == SupervisorPhase::kRunning && now >= walltime_end()) {
    actions.push_back(signal_action(SIGTERM));
    reason_ = StopReason::kTimeout;
    phase_ = SupervisorPhase::kTerminating;
    kill_at_ = kill_time(now, grace_);
  }
  // Falls through on purpose: a zero grace (or a late tick) owes the KILL at once.
  if (phase_ == SupervisorPhase::kTerminating && now >= kill_at_) {
    actions.push_back(signal_action(SIGKILL));
    phase_ = SupervisorPhase::kKilled;
    kill_at_ = Time::never();
  }
  return actions;
}

std::vector<SupervisorAction> JobSupervisor::on_signal_request(std::int32_t signal, Duration grace,
                                                               Time now) {
  std::vector<SupervisorAction> actions;
  if (phase_ == SupervisorPhase::kEnded) return actions;
  if (reason_ == StopReason::kNone) reason_ = StopReason::kCancelled;
  actions.push_back(signal_action(signal));
  if (signal == SIGKILL) {
    phase_ = SupervisorPhase::kKilled;
    kill_at_ = Time::never();
    return actions;
  }
  if (phase_ == SupervisorPhase::kKilled) return actions;
  phase_ = SupervisorPhase::kTerminating;
  const Duration wait = grace < Duration::seconds(0) ? Duration::seconds(0) : grace;
  kill_at_ = min(kill_at_, kill_time(now, wait));
  auto due = on_time(now);
  actions.insert(actions.end(), due.begin(), due.end());
  return actions;
}

JobState JobSupervisor::on_exit(ProcessExit exit, Time now) {
  if (final_state_) return *final_state_;
  exit_ = exit;
  end_time_ = now;
  phase_ = SupervisorPhase::kEnded;
  kill_at_ = Time::never();
  switch (reason_) {
    case StopReason::kTimeout:
      final_state_ = JobState::kTimeout;
      break;
    case StopReason::kCancelled:
      final_state_ = JobState::kCancelled;
      break;
    case StopReason::kNone:
      final_state_ = exit.succeeded() ? JobState::kCompleted : JobState::kFailed;
      break;
  }
  return *final_state_;
}

}  // namespace fairway::agent
