// sort_ranked must give exactly std::sort's order whatever the input: ordered, a few runs
// (the next pass's usual case), reversed, random, and with equal priorities.
#include "coordinator/core/rank_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace fairway {
namespace {

std::vector<RankKey> keys(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> priority(0, 50);  // many ties
  std::uniform_int_distribution<int> tier(0, 2);
  std::vector<RankKey> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back({tier(rng) == 0 ? 1 : 0, static_cast<double>(priority(rng)),
                   Time::from_seconds(static_cast<std::int64_t>(rng() % 1000)), JobId(i + 1), nullptr});
  }
  return out;
}

std::vector<std::uint64_t> ids(const std::vector<RankKey>& k) {
  std::vector<std::uint64_t> out;
  for (const RankKey& r : k) out.push_back(r.id.value());
  return out;
}

void expect_sorted_as_std(std::vector<RankKey> input) {
  std::vector<RankKey> expected = input;
  std::sort(expected.begin(), expected.end(), ranks_before);
  sort_ranked(input);
  EXPECT_EQ(ids(input), ids(expected));
}

TEST(RankOrder, TierFirstThenPriorityThenSubmitThenId) {
  const RankKey low_tier_high_priority{0, 100.0, Time::from_seconds(1), JobId(1), nullptr};
  const RankKey high_tier{1, 1.0, Time::from_seconds(5), JobId(2), nullptr};
  EXPECT_TRUE(ranks_before(high_tier, low_tier_high_priority));
  const RankKey older{0, 5.0, Time::from_seconds(1), JobId(9), nullptr};
  const RankKey newer{0, 5.0, Time::from_seconds(2), JobId(3), nullptr};
  EXPECT_TRUE(ranks_before(older, newer));
  const RankKey same_but_lower_id{0, 5.0, Time::from_seconds(1), JobId(4), nullptr};
  EXPECT_TRUE(ranks_before(same_but_lower_id, older));
  EXPECT_FALSE(ranks_before(older, older));
}

TEST(RankOrder, AnyInputEndsInTheSameOrderAsAFullSort) {
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    std::vector<RankKey> k = keys(1 + seed * 37, seed);
    expect_sorted_as_std(k);  // random: many runs, sorted outright
    std::sort(k.begin(), k.end(), ranks_before);
    expect_sorted_as_std(k);  // already ordered: one run
    std::reverse(k.begin(), k.end());
    expect_sorted_as_std(k);  // one run per key
  }
  expect_sorted_as_std({});
}

// What the next pass sees: the last order with a few jobs moved by swap-removal (the last
// job put where a started one was) and new jobs appended.
TEST(RankOrder, ALastOrderWithAFewJobsMovedIsMerged) {
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    std::vector<RankKey> k = keys(500, seed);
    std::sort(k.begin(), k.end(), ranks_before);
    std::mt19937 rng(seed);
    for (int moved = 0; moved < static_cast<int>(seed % 12); ++moved) {
      const std::size_t hole = rng() % k.size();
      k[hole] = k.back();
      k.pop_back();
    }
    std::vector<RankKey> fresh = keys(seed * 3, seed + 100);
    for (RankKey& r : fresh) r.id = JobId(r.id.value() + 10'000);
    k.insert(k.end(), fresh.begin(), fresh.end());
    expect_sorted_as_std(k);
  }
}

}  // namespace
}  // namespace fairway
