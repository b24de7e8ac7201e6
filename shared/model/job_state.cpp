#include "shared/model/job_state.h"

#include <array>
#include <string>

namespace fairway {
namespace {

constexpr std::array<std::string_view, 13> kNames = {
    "pending",   "held",    "blocked",   "running",  "completing", "completed", "failed",
    "cancelled", "timeout", "preempted", "requeued", "node_fail",  "oom"};

}  // namespace

std::string_view to_string(JobState s) {
  return kNames[static_cast<std::size_t>(s)];
}

std::optional<JobState> job_state_from_string(std::string_view s) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == s) return static_cast<JobState>(i);
  }
  return std::nullopt;
}

bool is_terminal(JobState s) {
  switch (s) {
    case JobState::kCompleted:
    case JobState::kFailed:
    case JobState::kCancelled:
    case JobState::kTimeout:
    case JobState::kPreempted:
    case JobState::kNodeFail:
    case JobState::kOutOfMemory:
      return true;
    default:
      return false;
  }
}

bool is_waiting(JobState s) {
  return s == JobState::kPending || s == JobState::kHeld || s == JobState::kBlocked;
}

bool is_legal_transition(JobState from, JobState to) {
  using S = JobState;
  if (from == to) return false;
  switch (from) {
    case S::kPending:
      return to == S::kHeld || to == S::kBlocked || to == S::kRunning || to == S::kCancelled;
    case S::kHeld:
      return to == S::kPending || to == S::kBlocked || to == S::kCancelled;
    case S::kBlocked:
      return to == S::kPending || to == S::kHeld || to == S::kCancelled;
    case S::kRunning:
      return to == S::kCompleting || to == S::kCompleted || to == S::kFailed || to == S::kCancelled ||
             to == S::kTimeout || to == S::kPreempted || to == S::kRequeued || to == S::kNodeFail ||
             to == S::kOutOfMemory;
    case S::kCompleting:
      return to == S::kCompleted || to == S::kFailed || to == S::kCancelled || to == S::kTimeout ||
             to == S::kNodeFail || to == S::kOutOfMemory;
    case S::kRequeued:
      return to == S::kPending || to == S::kHeld || to == S::kCancelled;
    default:
      return false;  // terminal states never move again
  }
}

Status check_transition(JobState from, JobState to) {
  if (is_legal_transition(from, to)) return ok_status();
  return make_error(
      ErrorCode::kFailedPrecondition,
      "illegal job state transition " + std::string(to_string(from)) + " -> " + std::string(to_string(to)));
}

}  // namespace fairway
