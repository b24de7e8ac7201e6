// Per-user token buckets on submissions (docs/architecture.md section 8: 1000 tokens, 2 per second), so
// one runaway script cannot flood the queue. Pure: time comes in as an argument.
#pragma once

#include <string>
#include <unordered_map>

#include "shared/base/time.h"

namespace fairway::daemon {

class SubmitRateLimiter {
 public:
  SubmitRateLimiter(std::int32_t burst, double refill_per_second)
      : burst_(burst), refill_(refill_per_second) {}

  // Takes one token for `user`; false when the bucket is empty.
  bool try_take(const std::string& user, Time now);
  // How long until `user` has a token again (for the error message).
  Duration wait_for_token(const std::string& user, Time now) const;

 private:
  struct Bucket {
    double tokens = 0;
    Time at;
  };
  double level(const Bucket& b, Time now) const;
  std::int32_t burst_;
  double refill_;
  std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace fairway::daemon
