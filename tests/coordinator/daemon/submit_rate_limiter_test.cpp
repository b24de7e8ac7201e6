#include "coordinator/daemon/submit_rate_limiter.h"

#include <gtest/gtest.h>

namespace fairway::daemon {
namespace {

Time T(std::int64_t s) {
  return Time::from_seconds(s);
}

TEST(SubmitRateLimiter, ABurstThenTheRefillRatePerUser) {
  SubmitRateLimiter l(3, 0.5);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(l.try_take("alice", T(0)));
  EXPECT_FALSE(l.try_take("alice", T(0)));
  EXPECT_EQ(l.wait_for_token("alice", T(0)), Duration::seconds(2));
  EXPECT_TRUE(l.try_take("bob", T(0)));  // buckets are per user
  EXPECT_FALSE(l.try_take("alice", T(1)));
  EXPECT_TRUE(l.try_take("alice", T(2)));
  // Refill never exceeds the burst.
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(l.try_take("alice", T(1000)));
  EXPECT_FALSE(l.try_take("alice", T(1000)));
}

}  // namespace
}  // namespace fairway::daemon
