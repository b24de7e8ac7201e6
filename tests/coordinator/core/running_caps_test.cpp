#include "coordinator/core/running_caps.h"

#include <gtest/gtest.h>

#include <vector>

namespace fairway {
namespace {

Config capped() {
  Config c;
  NodeBinConfig small;
  small.name = "small";
  small.max_nodes = 4;
  small.max_running_jobs_per_user = 2;
  NodeBinConfig big;
  big.name = "big";
  big.min_nodes = 5;
  c.node_bins = {small, big};
  c.allocation_overuse = {{100, Duration::days(30), std::nullopt}, {125, Duration::days(365), 1}};
  return c;
}

JobRecord rec(const char* user, const char* account, std::optional<std::size_t> bin,
              std::optional<std::size_t> tier = std::nullopt) {
  JobRecord j;
  j.spec.user = user;
  j.spec.account = account;
  j.node_bin = bin;
  j.overuse_tier = tier;
  return j;
}

TEST(RunningCaps, PerUserCapInABin) {
  const Config c = capped();
  RunningCaps caps(c);
  ASSERT_TRUE(caps.enabled());
  JobRecord r1 = rec("u", "a", 0);
  JobRecord r2 = rec("u", "a", 0);
  std::vector<JobRecord*> running = {&r1};
  caps.begin_pass(running);
  EXPECT_FALSE(caps.check(rec("u", "a", 0)).has_value());
  caps.on_start(r2);
  EXPECT_EQ(caps.check(rec("u", "a", 0)), PendingReason::kBinRunningLimit);
  EXPECT_FALSE(caps.check(rec("v", "a", 0)).has_value()) << "another user";
  EXPECT_FALSE(caps.check(rec("u", "a", 1)).has_value()) << "an uncapped bin";
  EXPECT_FALSE(caps.check(rec("u", "a", std::nullopt)).has_value()) << "no bin";
  // Counts are rebuilt each pass.
  caps.begin_pass({});
  EXPECT_FALSE(caps.check(rec("u", "a", 0)).has_value());
}

TEST(RunningCaps, OveruseTierCapsTheAccount) {
  const Config c = capped();
  RunningCaps caps(c);
  JobRecord r1 = rec("u", "over", 1);
  std::vector<JobRecord*> running = {&r1};
  caps.begin_pass(running);
  EXPECT_EQ(caps.check(rec("v", "over", 1, 1)), PendingReason::kOveruseRunningLimit);
  EXPECT_FALSE(caps.check(rec("v", "over", 1, 0)).has_value()) << "tier without a cap";
  EXPECT_FALSE(caps.check(rec("v", "fine", 1, std::nullopt)).has_value());
}

TEST(RunningCaps, DisabledWhenNothingIsCapped) {
  Config c;
  c.node_bins.resize(1);
  c.allocation_overuse = {{100, Duration::days(30), std::nullopt}};
  EXPECT_FALSE(RunningCaps(c).enabled());
}

}  // namespace
}  // namespace fairway
