#include "client/views/slurm/slurm_job_view.h"

#include <charconv>

#include "client/views/text_format.h"

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
  // A job that has not ended (a requeued one again) has no exit status yet: its last run's
  // is not shown (Slurm: 0:0 once requeued).
  if (!is_terminal(job.state)) {
    job.exit_code.reset();
    job.signal.reset();
  }
}

void to_scontrol_view(wire::JobView& job) {
  const auto exit_code = job.exit_code;
  const auto signal = job.signal;
  to_slurm_view(job);
  if (job.state == JobState::kCancelled || job.state == JobState::kTimeout) {
    job.exit_code = exit_code;
    job.signal = signal;
  }
  if (job.reasons.empty() && job.state == JobState::kTimeout) job.reasons = {"TimeLimit"};
  if (job.reasons.empty() && job.state == JobState::kFailed && job.exit_code.value_or(0) != 0) {
    job.reasons = {"NonZeroExitCode"};
  }
}

std::optional<wire::JobView> batch_step_view(const wire::JobView& job) {
  if (job.interactive || !job.start_time) return std::nullopt;
  switch (job.state) {
    case JobState::kRunning:
    case JobState::kCompleting:
    case JobState::kCompleted:
    case JobState::kFailed:
    case JobState::kOutOfMemory:
    case JobState::kCancelled:
    case JobState::kTimeout:
    case JobState::kPreempted:
    case JobState::kNodeFail:
      break;
    default:
      return std::nullopt;  // waiting (again): its run, if any, is not this one
  }
  wire::JobView b = job;
  b.name = "batch";
  b.partition.clear();
  if (b.allocation.size() > 1) b.allocation.resize(1);  // the script runs on the job's first node
  b.state_reason.clear();
  if (job.state == JobState::kTimeout || job.state == JobState::kPreempted ||
      job.state == JobState::kNodeFail) {
    b.state = JobState::kCancelled;  // the script was killed: Slurm's batch step says so
  }
  b.exit_code = job.exit_code.value_or(0);
  b.signal = job.signal.value_or(0);
  return b;
}

std::vector<StepLine> step_lines(const wire::JobView& job) {
  std::vector<StepLine> lines;
  if (auto batch = batch_step_view(job)) lines.push_back({"batch", std::move(*batch)});
  for (const wire::StepView& s : job.steps) {
    wire::JobView v = job;
    v.steps.clear();
    v.name = s.name;
    v.partition.clear();
    v.state_reason.clear();
    if (v.allocation.size() > static_cast<std::size_t>(s.nodes))
      v.allocation.resize(static_cast<std::size_t>(s.nodes));
    v.state = s.state;
    v.start_time = s.start_time;
    v.end_time = s.end_time;
    v.exit_code = s.exit_code;
    v.signal = s.signal;
    v.ntasks = s.ntasks;
    // What its tasks used, not the job's (sacct's MaxRSS and TotalCPU of ID.N).
    v.peak_memory_bytes = s.max_rss_kb ? std::optional(*s.max_rss_kb * 1024) : std::nullopt;
    v.cpu_time_ms = s.cpu_us ? std::optional(*s.cpu_us / 1000) : std::nullopt;
    lines.push_back({std::to_string(s.step), std::move(v)});
  }
  return lines;
}

std::string step_tres(const wire::JobView& step) {
  if (step.allocation.empty()) return "";
  std::int64_t cores = 0, gpus = 0;
  for (const auto& a : step.allocation) {
    cores += std::ssize(a.cores);
    gpus += std::ssize(a.gpus);
  }
  return "cpu=" + std::to_string(cores) + (gpus > 0 ? ",gres/gpu=" + std::to_string(gpus) : "") +
         ",mem=0,node=" + std::to_string(step.allocation.size());
}

std::string step_distribution(const wire::JobView& step) {
  return std::max(1, step.ntasks) > static_cast<std::int32_t>(step.allocation.size()) ? "Block" : "Cyclic";
}

int slurm_state_rank(JobState s) {
  switch (s) {
    case JobState::kPending:
    case JobState::kHeld:
    case JobState::kBlocked:
    case JobState::kRequeued:
      return 0;
    case JobState::kRunning:
    case JobState::kCompleting:
      return 1;
    case JobState::kCompleted:
      return 3;
    case JobState::kCancelled:
      return 4;
    case JobState::kFailed:
      return 5;
    case JobState::kTimeout:
      return 6;
    case JobState::kNodeFail:
      return 7;
    case JobState::kPreempted:
      return 8;
    case JobState::kOutOfMemory:
      return 11;
  }
  return 12;
}

namespace {

struct Canceller {
  std::string_view name;
  std::uint32_t uid = 0;
};

std::optional<Canceller> canceller(std::string_view reason) {
  constexpr std::string_view kStart = "cancelled by ", kUid = " (uid ";
  if (!reason.starts_with(kStart) || !reason.ends_with(')')) return std::nullopt;
  const std::size_t at = reason.rfind(kUid);
  if (at == std::string_view::npos || at < kStart.size()) return std::nullopt;
  const std::string_view digits = reason.substr(at + kUid.size(), reason.size() - 1 - at - kUid.size());
  std::uint32_t uid = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), uid);
  if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
  return Canceller{reason.substr(kStart.size(), at - kStart.size()), uid};
}

}  // namespace

std::optional<std::uint32_t> cancelled_by_uid(std::string_view reason) {
  const auto c = canceller(reason);
  return c ? std::optional<std::uint32_t>(c->uid) : std::nullopt;
}

std::optional<std::string> cancelled_by_name(std::string_view reason) {
  const auto c = canceller(reason);
  return c ? std::optional<std::string>(c->name) : std::nullopt;
}

std::string sacct_state_text(const wire::JobView& job) {
  std::string text = state_name(job.state);
  if (job.state == JobState::kCancelled) {
    if (auto uid = cancelled_by_uid(job.state_reason)) text += " by " + std::to_string(*uid);
  }
  return text;
}

}  // namespace fairway::cli
