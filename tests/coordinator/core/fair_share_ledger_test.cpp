#include "coordinator/core/fair_share_ledger.h"

#include <gtest/gtest.h>

#include <cmath>

namespace fairway {
namespace {

Time T(std::int64_t s) {
  return Time::from_seconds(s);
}

TEST(FairShareLedger, UsageAccruesWhileRunningAndHalvesEachHalfLife) {
  FairShareLedger l(Duration::seconds(1000));
  auto a = l.association("proj", "alice");
  l.start_usage(a, 2.0, T(0));
  l.stop_usage(a, 2.0, T(10));
  // 10 s at 2 units/s with slight decay: just under 20.
  EXPECT_NEAR(l.user_usage(a, T(10)), 20.0, 0.2);
  EXPECT_NEAR(l.user_usage(a, T(1010)), l.user_usage(a, T(10)) / 2, 1e-9);
  EXPECT_NEAR(l.user_usage(a, T(2010)), l.user_usage(a, T(10)) / 4, 1e-9);
}

TEST(FairShareLedger, ClosedFormMatchesStepwiseAccrual) {
  FairShareLedger l(Duration::seconds(500));
  auto a = l.association("p", "u");
  l.start_usage(a, 1.0, T(0));
  const double lambda = std::log(2.0) / 500.0;
  double stepwise = 0;
  for (int t = 0; t < 3000; ++t) stepwise = stepwise * std::exp(-lambda) + (1 - std::exp(-lambda)) / lambda;
  EXPECT_NEAR(l.user_usage(a, T(3000)), stepwise, 1e-6);
}

TEST(FairShareLedger, FactorIsOneUnusedHalfAtFairShareAndLowerAbove) {
  FairShareLedger l(Duration::days(14));
  auto alice = l.association("proj", "alice");
  auto bob = l.association("proj", "bob");
  EXPECT_DOUBLE_EQ(l.factor(alice, T(0)), 1.0);
  l.start_usage(alice, 1.0, T(0));
  l.start_usage(bob, 1.0, T(0));
  // Each used exactly half and was promised half: 2^-1.
  EXPECT_NEAR(l.factor(alice, T(3600)), 0.5, 1e-9);
  l.stop_usage(bob, 1.0, T(3600));
  EXPECT_LT(l.factor(alice, T(7200)), 0.5);
  EXPECT_GT(l.factor(bob, T(7200)), 0.5);
}

TEST(FairShareLedger, SharesSplitByAccountThenUser) {
  FairShareLedger l;
  l.set_account_shares("big", 3);
  l.set_account_shares("small", 1);
  auto a = l.association("big", "a");
  auto b = l.association("big", "b");
  auto c = l.association("small", "c");
  EXPECT_DOUBLE_EQ(l.normalized_shares(a), 0.375);
  EXPECT_DOUBLE_EQ(l.normalized_shares(b), 0.375);
  EXPECT_DOUBLE_EQ(l.normalized_shares(c), 0.25);
}

// With a window, usage counts in full until it is older than the window, then not at all,
// for the user, the account and the total; lifetime usage never forgets.
TEST(FairShareLedger, WindowForgetsUsageOlderThanTheWindow) {
  const Duration w = Duration::days(10);
  FairShareLedger l(Duration::days(14), w);
  auto a = l.association("proj", "alice");
  auto b = l.association("other", "bob");
  l.start_usage(a, 2.0, T(0));
  l.stop_usage(a, 2.0, T(3600));
  l.start_usage(b, 1.0, T(5 * 86400));
  l.stop_usage(b, 1.0, T(5 * 86400 + 3600));
  EXPECT_DOUBLE_EQ(l.user_usage(a, T(9 * 86400)), 7200);
  EXPECT_DOUBLE_EQ(l.account_usage(a, T(9 * 86400)), 7200);
  EXPECT_DOUBLE_EQ(l.total_usage(T(9 * 86400)), 10800);
  EXPECT_LT(l.factor(a, T(9 * 86400)), 0.5);
  const Time later = T(10 * 86400 + 3600);
  EXPECT_DOUBLE_EQ(l.user_usage(a, later), 0);
  EXPECT_DOUBLE_EQ(l.total_usage(later), 3600);
  EXPECT_DOUBLE_EQ(l.factor(a, later), 1.0);
  EXPECT_DOUBLE_EQ(l.account_allocation_usage(a, later), 7200);
}

}  // namespace
}  // namespace fairway
