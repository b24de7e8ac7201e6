#include "coordinator/daemon/step_book.h"

#include <algorithm>
#include <csignal>
#include <utility>

namespace fairway::daemon {

std::optional<std::vector<std::vector<std::int32_t>>> StepBook::take_cores(
    const std::vector<StepCores::Need>& needs) {
  return cores_.take(next_, needs);
}

const StoredStep& StepBook::open(StoredStep row) {
  row.step = next_++;
  row.state = JobState::kRunning;
  const std::int32_t number = row.step;
  return open_[number] = std::move(row);
}

std::optional<StoredStep> StepBook::end(const wire::StepEnded& m, Time now) {
  auto open = open_.find(m.step);
  if (open == open_.end()) return std::nullopt;
  StoredStep step = std::move(open->second);
  open_.erase(open);
  cores_.release(m.step);
  step.state = m.signal != 0      ? JobState::kCancelled
               : m.exit_code != 0 ? JobState::kFailed
                                  : JobState::kCompleted;
  step.end_time = std::max(now, step.start_time);
  step.exit_code = m.exit_code;
  step.signal = m.signal;
  step.max_rss_kb = m.max_rss_kb;
  step.cpu_us = m.cpu_us;
  return step;
}

std::vector<StoredStep> StepBook::end_all(Time now) {
  std::vector<StoredStep> ended;
  ended.reserve(open_.size());
  for (auto& [number, step] : open_) {
    step.state = JobState::kCancelled;
    step.end_time = std::max(now, step.start_time);
    step.exit_code = 0;
    step.signal = SIGKILL;
    ended.push_back(std::move(step));
  }
  open_.clear();
  cores_ = StepCores{};
  return ended;
}

void StepBook::restore_open(StoredStep row) {
  const std::int32_t number = row.step;
  open_[number] = std::move(row);
}

}  // namespace fairway::daemon
