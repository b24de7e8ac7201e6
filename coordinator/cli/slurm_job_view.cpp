#include "coordinator/cli/slurm_job_view.h"

#include <charconv>

#include "coordinator/cli/text_format.h"

namespace fairway::cli {

void to_slurm_view(wire::JobView& job) {
  switch (job.state) {
    case JobState::kHeld:
      job.state = JobState::kPending;
      job.reasons = {"JobHeldUser"};
      job.priority = 0;
      break;
    case JobState::kBlocked:
    case JobState::kRequeued:
      job.state = JobState::kPending;
      break;
    case JobState::kCancelled:
    case JobState::kTimeout:
      job.exit_code = 0;
      job.signal = 0;
      break;
    default:
      break;
  }
  if (job.state == JobState::kPending && job.allocation.empty() && job.nodes == 0) job.nodes = 1;
}

int slurm_state_rank(JobState s) {
  switch (s) {
    case JobState::kPending:
    case JobState::kHeld:
    case JobState::kBlocked:
    case JobState::kRequeued: return 0;
    case JobState::kRunning:
    case JobState::kCompleting: return 1;
    case JobState::kCompleted: return 3;
    case JobState::kCancelled: return 4;
    case JobState::kFailed: return 5;
    case JobState::kTimeout: return 6;
    case JobState::kNodeFail: return 7;
    case JobState::kPreempted: return 8;
    case JobState::kOutOfMemory: return 11;
  }
  return 12;
}

std::optional<std::uint32_t> cancelled_by_uid(std::string_view reason) {
  constexpr std::string_view kStart = "cancelled by ", kUid = " (uid ";
  if (!reason.starts_with(kStart) || !reason.ends_with(')')) return std::nullopt;
  const std::size_t at = reason.rfind(kUid);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view digits = reason.substr(at + kUid.size(), reason.size() - 1 - at - kUid.size());
  std::uint32_t uid = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), uid);
  if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
  return uid;
}

std::string sacct_state_text(const wire::JobView& job) {
  std::string text = state_name(job.state);
  if (job.state == JobState::kCancelled) {
    if (auto uid = cancelled_by_uid(job.state_reason)) text += " by " + std::to_string(*uid);
  }
  return text;
}

}  // namespace fairway::cli
