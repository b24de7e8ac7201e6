#include <gtest/gtest.h>

#include <initializer_list>
#include <utility>

#include "coordinator/core/fair_share_ledger.h"

namespace fairway {
namespace {

Time T(std::int64_t s) {
  return Time::from_seconds(s);
}

// Usage must be recorded in time order: every job runs over the same [from, to).
void run(FairShareLedger& l, std::initializer_list<std::pair<AssociationIndex, double>> jobs,
         std::int64_t from, std::int64_t to) {
  for (auto [a, rate] : jobs) l.start_usage(a, rate, T(from));
  for (auto [a, rate] : jobs) l.stop_usage(a, rate, T(to));
}

// Account B (unused) ranks above A; inside A the lighter user ranks above the heavier.
TEST(FairTree, AccountsThenUsersRankedByLevelFairShare) {
  FairShareLedger l(Duration::days(14));
  const AssociationIndex a1 = l.association("A", "a1");
  const AssociationIndex a2 = l.association("A", "a2");
  const AssociationIndex b1 = l.association("B", "b1");
  run(l, {{a1, 10}, {a2, 1}}, 0, 1000);
  const auto f = l.fair_tree_factors(T(1000));
  ASSERT_EQ(f.size(), 3u);
  EXPECT_DOUBLE_EQ(f[b1], 3.0 / 3);
  EXPECT_DOUBLE_EQ(f[a2], 2.0 / 3);
  EXPECT_DOUBLE_EQ(f[a1], 1.0 / 3);
}

// A heavy user in a light account still outranks a light user in a heavy account: the
// account level decides first (unlike the classic factor, which only sees the user).
TEST(FairTree, TheAccountLevelDecidesFirst) {
  FairShareLedger l(Duration::days(14));
  const AssociationIndex heavy_in_light = l.association("light", "h");
  const AssociationIndex other_in_light = l.association("light", "o");
  const AssociationIndex light_in_heavy = l.association("heavy", "l");
  const AssociationIndex other_in_heavy = l.association("heavy", "x");
  run(l, {{heavy_in_light, 4}, {light_in_heavy, 1}, {other_in_heavy, 8}}, 0, 1000);
  (void)other_in_light;
  const auto f = l.fair_tree_factors(T(1000));
  EXPECT_GT(f[heavy_in_light], f[light_in_heavy]);
  EXPECT_DOUBLE_EQ(f[other_in_light], 1.0);
  EXPECT_DOUBLE_EQ(f[heavy_in_light], 3.0 / 4);
  EXPECT_DOUBLE_EQ(f[light_in_heavy], 2.0 / 4);
  EXPECT_DOUBLE_EQ(f[other_in_heavy], 1.0 / 4);
}

// Shares count: with equal usage, the account promised more ranks higher.
TEST(FairTree, SharesRaiseTheLevelFairShare) {
  FairShareLedger l(Duration::days(14));
  l.set_account_shares("big", 3);
  const AssociationIndex big = l.association("big", "u");
  const AssociationIndex small = l.association("small", "v");
  run(l, {{big, 1}, {small, 1}}, 0, 1000);
  const auto f = l.fair_tree_factors(T(1000));
  EXPECT_DOUBLE_EQ(f[big], 1.0);
  EXPECT_DOUBLE_EQ(f[small], 0.5);
}

// Ties share the better rank, across accounts too (their users are merged).
TEST(FairTree, TiesShareARank) {
  FairShareLedger l(Duration::days(14));
  const AssociationIndex a = l.association("A", "a");
  const AssociationIndex b = l.association("B", "b");
  const AssociationIndex c = l.association("C", "c");
  auto f = l.fair_tree_factors(T(0));
  EXPECT_DOUBLE_EQ(f[a], 1.0);
  EXPECT_DOUBLE_EQ(f[b], 1.0);
  EXPECT_DOUBLE_EQ(f[c], 1.0);
  run(l, {{c, 1}}, 0, 100);
  f = l.fair_tree_factors(T(100));
  EXPECT_DOUBLE_EQ(f[a], 1.0);
  EXPECT_DOUBLE_EQ(f[b], 1.0);
  EXPECT_DOUBLE_EQ(f[c], 1.0 / 3);
}

}  // namespace
}  // namespace fairway
