// The local router's frame timeout: which connections have a message begun and not
// finished, since when, and which have waited too long. Pure bookkeeping; time is given.
#pragma once

#include <chrono>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace fairway::net {

class FrameDeadlines {
 public:
  using Clock = std::chrono::steady_clock;
  explicit FrameDeadlines(std::chrono::milliseconds timeout) : timeout_(timeout) {}

  // After reading from connection `key`: whether it has a message begun and not finished,
  // and whether it finished one in that read. The clock runs from a message's first byte,
  // or from the connection's last whole message when requests come back to back.
  void after_read(std::uint64_t key, bool unfinished, bool finished_one, Clock::time_point now);
  void forget(std::uint64_t key) { since_.erase(key); }

  // The connections whose unfinished message began `timeout` or more before `now`, with
  // how long ago. Looked for at most every 100 ms, so that many slow connections cost
  // little per call; those returned are forgotten.
  std::vector<std::pair<std::uint64_t, std::chrono::milliseconds>> expired(Clock::time_point now);

  std::chrono::milliseconds timeout() const { return timeout_; }

 private:
  std::chrono::milliseconds timeout_;
  std::unordered_map<std::uint64_t, Clock::time_point> since_;
  Clock::time_point next_scan_{};
};

}  // namespace fairway::net
