#include "coordinator/daemon/client_tokens.h"

#include <gtest/gtest.h>

namespace fairway::daemon {
namespace {

const Time t0 = Time::from_seconds(1'700'000'000);

TEST(ClientTokens, ARetryFindsTheFirstJobOfItsUserOnly) {
  ClientTokens tokens;
  tokens.remember("alice", "tok-1", JobId(7), t0);
  tokens.remember("alice", "", JobId(8), t0);  // no token: nothing to find later
  EXPECT_EQ(tokens.find("alice", "tok-1", t0 + Duration::seconds(30)), JobId(7));
  EXPECT_EQ(tokens.find("bob", "tok-1", t0), std::nullopt) << "another user's token is not theirs";
  EXPECT_EQ(tokens.find("alice", "", t0), std::nullopt);
  EXPECT_EQ(tokens.size(), 1u);
}

// The map held every token ever submitted (issue 14: nothing was ever purged).
TEST(ClientTokens, TokensOlderThanADayAreForgotten) {
  ClientTokens tokens;
  for (std::uint64_t i = 1; i <= 1000; ++i) {
    tokens.remember("alice", "tok-" + std::to_string(i), JobId(i),
                    t0 + Duration::seconds(static_cast<std::int64_t>(i)));
  }
  EXPECT_EQ(tokens.find("alice", "tok-1", t0 + ClientTokens::kKept), JobId(1));
  EXPECT_EQ(tokens.find("alice", "tok-1", t0 + ClientTokens::kKept + Duration::seconds(2)), std::nullopt);
  EXPECT_EQ(tokens.size(), 999u);
  EXPECT_EQ(tokens.find("alice", "tok-1000", t0 + ClientTokens::kKept + Duration::seconds(1000)),
            JobId(1000));
  EXPECT_EQ(tokens.find("alice", "x", t0 + ClientTokens::kKept + ClientTokens::kKept + ClientTokens::kKept),
            std::nullopt);
  EXPECT_EQ(tokens.size(), 0u);
}

TEST(ClientTokens, AReusedTokenOutlivesItsFirstUse) {
  ClientTokens tokens;
  tokens.remember("alice", "tok", JobId(1), t0);
  tokens.remember("alice", "tok", JobId(2), t0 + Duration::hours(20));
  EXPECT_EQ(tokens.find("alice", "tok", t0 + Duration::hours(30)), JobId(2));
}

}  // namespace
}  // namespace fairway::daemon
