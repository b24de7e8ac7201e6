// How a running job ends: the decisions the coordinator daemon used to make inline
// (job_ended, lose_job), as effects for it to carry out.
#include "coordinator/core/job_lifecycle.h"

#include <type_traits>

namespace fairway::lifecycle {

namespace {

constexpr std::int32_t kTerm = 15;  // SIGTERM; the core names no OS headers

bool running(const JobRecord& rec) {
  return rec.state == JobState::kRunning;
}
// Control requests also reach a job whose processes are being stopped.
bool live(const JobRecord& rec) {
  return running(rec) || rec.state == JobState::kCompleting;
}

std::vector<JobEffect> node_lost(const JobRecord& rec, const std::string& why) {
  if (!running(rec)) return {};
  std::vector<JobEffect> out{SetReason{why}};
  if (rec.spec.requeue) {
    out.emplace_back(Requeue{why, true});
    out.emplace_back(Persist{});
    out.emplace_back(MailRequeue{});
  } else {
    out.emplace_back(Finish{JobState::kNodeFail, false});
    out.emplace_back(Forget{});
  }
  return out;
}

std::vector<JobEffect> reported(JobRecord& rec, JobState state, const JobOutcome& outcome) {
  if (!running(rec)) return {};
  rec.outcome = outcome;
  StopIntent& stop = rec.stop;
  if (state == JobState::kNodeFail && !stop.cancel && !stop.requeue) {
    // Its agent stopped it for want of us (self-fencing): not the job's doing.
    return node_lost(rec, "its node lost the coordinator and stopped it");
  }
  if (stop.requeue) {
    stop.requeue = false;
    const std::string why = "requeued on request";
    return {Requeue{why, false}, SetReason{why}, Persist{}, MailRequeue{}};
  }
  if (rec.preempting && !stop.cancel && state != JobState::kCompleted) {
    // Stopped for a higher tier (a run that completed on its own stays completed).
    return {StopPreempted{}};
  }
  Finish finish{state, true};
  if (stop.cancel && state != JobState::kCompleted) finish.state = JobState::kCancelled;
  if (stop.allocation_outcome) {
    // Its client ended it: the command's outcome is the job's, not the holder's kill.
    const auto [code, sig] = *stop.allocation_outcome;
    finish.state = code == 0 && sig == 0 ? JobState::kCompleted : JobState::kFailed;
    rec.outcome.exit_code.reset();
    rec.outcome.signal.reset();
    if (sig == 0)
      rec.outcome.exit_code = code;
    else
      rec.outcome.signal = sig;
  }
  if (finish.state == JobState::kRunning || !is_terminal(finish.state)) finish.state = JobState::kFailed;
  std::vector<JobEffect> out{finish};
  if (finish.state == JobState::kCancelled && !stop.cancelled_by.empty())
    out.emplace_back(SetReason{stop.cancelled_by});
  out.emplace_back(Forget{});
  return out;
}

}  // namespace

std::vector<JobEffect> apply(JobRecord& rec, const JobEvent& event, Time now) {
  return std::visit(
      [&rec, now](const auto& e) -> std::vector<JobEffect> {
        using E = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<E, NotRestored>) {
          if (!running(rec)) return {};
          rec.state = JobState::kNodeFail;
          rec.end_time = now;
          rec.reason = "could not be restored: " + e.why;
          rec.start_time = Time();
          rec.allocation = {};
          return {};
        } else if constexpr (std::is_same_v<E, Reported>) {
          return reported(rec, e.state, e.outcome);
        } else if constexpr (std::is_same_v<E, NodeLost>) {
          return node_lost(rec, e.why);
        } else {
          if (!live(rec)) return {};
          if constexpr (std::is_same_v<E, CancelAsked>) {
            rec.stop.cancel = true;
            rec.stop.cancelled_by = e.by;
          } else if constexpr (std::is_same_v<E, AllocationEnded>) {
            rec.stop.cancel = true;
            rec.stop.allocation_outcome = std::pair{e.exit_code, e.signal};
          } else {
            static_assert(std::is_same_v<E, RequeueAsked>);
            rec.stop.requeue = true;
          }
          return {Signal{kTerm}};
        }
      },
      event);
}

}  // namespace fairway::lifecycle
