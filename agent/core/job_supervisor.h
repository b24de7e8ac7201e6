// The agent's state machine for one launched job, with time as a parameter: walltime
// enforcement and signal requests as TERM-then-KILL, and the final state from the exit.
// Not thread-safe: one owner (the agent's loop).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "agent/core/process_exit.h"
#include "shared/base/ids.h"
#include "shared/base/result.h"
#include "shared/base/time.h"
#include "shared/model/job_state.h"

namespace fairway::agent {

enum class SupervisorActionKind : std::uint8_t {
  kSignalGroup,    // kill(-pgid, signal)
  kSignalProcess,  // kill(pgid, signal): the batch script's own process only (it leads the group)
};

struct SupervisorAction {
  JobId job;
  SupervisorActionKind kind = SupervisorActionKind::kSignalGroup;
  std::int64_t pgid = 0;
  std::int32_t signal = 0;
  bool operator==(const SupervisorAction&) const = default;
};

// Why we are stopping the job; decides the final state once its process ends.
enum class StopReason : std::uint8_t {
  kNone,       // still running on its own
  kTimeout,    // it reached its walltime
  kCancelled,  // the coordinator asked (cancel, preemption): SignalJob
};

enum class SupervisorPhase : std::uint8_t {
  kRunning,      // nothing sent yet; the walltime is the next deadline
  kTerminating,  // a stop signal sent; SIGKILL at kill_at unless it ends first
  kKilled,       // SIGKILL sent; waiting for the exit to be reaped
  kEnded,        // exit seen; final_state() is set
};

class JobSupervisor {
 public:
  static constexpr Duration kDefaultGrace = Duration::seconds(30);

  // A job whose process group `pgid` (led by `pid`) started at `start`. Also used to
  // re-adopt a job after an agent restart: an overdue walltime acts at the next on_time.
  // Errors name the bad field: pid/pgid must be positive, time_limit and grace too
  // (grace may be zero: KILL right after TERM).
  static Result<JobSupervisor> launched(JobId job, std::int64_t pid, std::int64_t pgid, Time start,
                                        Duration time_limit, Duration grace = kDefaultGrace);

  // sbatch --signal: `signal` `before` the walltime, to the whole process group or, with
  // `batch_only` (B:), to the batch script's process alone. Once, while it still runs.
  void set_warning(std::int32_t signal, Duration before, bool batch_only);

  // `fairway update job TimeLimit=`: the walltime counts from the start with this limit
  // (an end already past acts at the next on_time). Ignored once the job is being stopped.
  Status set_time_limit(Duration time_limit);

  // The next instant on_time() has something to do; Time::never() when nothing is due.
  Time deadline() const;

  // The signals due at `now`, in order (TERM at the walltime, KILL after the grace).
  std::vector<SupervisorAction> on_time(Time now);

  // The coordinator asked to stop the job: `signal` now, SIGKILL after `grace` if it is
  // still alive. A job already being stopped keeps its first reason and the earlier KILL.
  std::vector<SupervisorAction> on_signal_request(std::int32_t signal, Duration grace, Time now);

  // The job's main process ended; returns its final state: timeout or cancelled when we
  // were stopping it for that reason, else completed on exit 0, else failed (non-zero
  // exit, or a signal we did not send). Repeated calls return the first answer.
  JobState on_exit(ProcessExit exit, Time now);

  JobId job() const { return job_; }
  std::int64_t pid() const { return pid_; }
  std::int64_t pgid() const { return pgid_; }
  Time start() const { return start_; }
  Duration time_limit() const { return time_limit_; }
  Time walltime_end() const { return start_ + time_limit_; }
  SupervisorPhase phase() const { return phase_; }
  StopReason stop_reason() const { return reason_; }
  std::optional<ProcessExit> exit() const { return exit_; }
  std::optional<JobState> final_state() const { return final_state_; }
  std::optional<Time> end_time() const { return end_time_; }

 private:
  JobSupervisor() = default;
  SupervisorAction signal_action(std::int32_t signal) const;
  static Time kill_time(Time now, Duration grace);

  JobId job_;
  std::int64_t pid_ = 0;
  std::int64_t pgid_ = 0;
  Time start_;
  Duration time_limit_;
  Duration grace_;
  SupervisorPhase phase_ = SupervisorPhase::kRunning;
  StopReason reason_ = StopReason::kNone;
  Time kill_at_ = Time::never();
  std::int32_t warn_signal_ = 0;  // 0: no warning
  Duration warn_before_;
  bool warn_batch_only_ = false;
  bool warned_ = false;
  Time warn_at() const { return walltime_end() - warn_before_; }
  std::optional<ProcessExit> exit_;
  std::optional<JobState> final_state_;
  std::optional<Time> end_time_;
};

}  // namespace fairway::agent
