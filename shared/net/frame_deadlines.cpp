#include "shared/net/frame_deadlines.h"

namespace fairway::net {
namespace {

constexpr auto kScanGap = std::chrono::milliseconds(100);

}  // namespace

void FrameDeadlines::after_read(std::uint64_t key, bool unfinished, bool finished_one,
                                Clock::time_point now) {
  if (!unfinished) {
    since_.erase(key);
    return;
  }
  auto [it, added] = since_.try_emplace(key, now);
  if (!added && finished_one) it->second = now;
}

std::vector<std::pair<std::uint64_t, std::chrono::milliseconds>> FrameDeadlines::expired(
    Clock::time_point now) {
  std::vector<std::pair<std::uint64_t, std::chrono::milliseconds>> out;
  if (since_.empty() || now < next_scan_) return out;
  next_scan_ = now + kScanGap;
  for (auto it = since_.begin(); it != since_.end();) {
    if (now - it->second >= timeout_) {
      out.emplace_back(it->first, std::chrono::duration_cast<std::chrono::milliseconds>(now - it->second));
      it = since_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

}  // namespace fairway::net
