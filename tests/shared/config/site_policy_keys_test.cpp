// The keys that express the seed sites' policies (Sigma2, HPC2N, Kebnekaise, Titan) and
// the shipped profiles that use them.
#include <gtest/gtest.h>

#include <string>

#include "config_test_util.h"
#include "shared/config/config.h"
#include "shared/config/config_file.h"

namespace fairway {
namespace {

using config_test::kNode;
using config_test::parse_error;
using config_test::parse_ok;

TEST(Config, SigmaStyleKeysParse) {
  Config c = parse_ok(std::string(kNode) + R"(
[[partitions]]
name = "normal"
default_qos = "normal"
[[qos]]
name = "normal"
priority = 19760
[[qos]]
name = "optimist"
priority = 1
max_priority = 10080
[scheduler]
backfill = "conservative"
reservation_min_priority = 20000
reserve_after_wait = "2d"
reserve_after_wait_jobs = 3
)");
  EXPECT_EQ(c.partitions[0].default_qos, "normal");
  EXPECT_FALSE(c.qos[0].max_priority.has_value());
  ASSERT_TRUE(c.qos[1].max_priority.has_value());
  EXPECT_DOUBLE_EQ(*c.qos[1].max_priority, 10080);
  ASSERT_TRUE(c.scheduler.reservation_min_priority.has_value());
  EXPECT_DOUBLE_EQ(*c.scheduler.reservation_min_priority, 20000);
  EXPECT_FALSE(parse_ok(kNode).scheduler.reservation_min_priority.has_value());
  EXPECT_EQ(c.scheduler.reserve_after_wait, Duration::hours(48));
  EXPECT_FALSE(parse_ok(kNode).scheduler.reserve_after_wait.has_value());
  EXPECT_EQ(c.scheduler.reserve_after_wait_jobs, 3);
  EXPECT_EQ(parse_ok(kNode).scheduler.reserve_after_wait_jobs, 1);
}

TEST(Config, DefaultQosMustBeDeclared) {
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[[partitions]]\nname = \"p\"\ndefault_qos = \"gold\"\n"),
                  "cluster.toml: partitions[0].default_qos: unknown qos 'gold'");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[[qos]]\nname = \"q\"\nmax_priority = -1\n"),
                  "qos[0].max_priority");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[scheduler]\nreservation_min_priority = \"high\"\n"),
                  "scheduler.reservation_min_priority");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[scheduler]\nreserve_after_wait = \"soon\"\n"),
                  "scheduler.reserve_after_wait");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[scheduler]\nreserve_after_wait = 0\n"),
                  "scheduler.reserve_after_wait");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[scheduler]\nreserve_after_wait_jobs = 0\n"),
                  "scheduler.reserve_after_wait_jobs");
}

TEST(Config, RuntimePredictionAndBackfillOrderParse) {
  const Config plain = parse_ok(kNode);
  EXPECT_EQ(plain.scheduler.runtime_prediction, RuntimePrediction::kNone);
  EXPECT_EQ(plain.scheduler.backfill_order, BackfillOrder::kPriority);
  const Config c =
      parse_ok(std::string(kNode) +
               "[scheduler]\nruntime_prediction = \"user_last_2\"\nbackfill_order = \"shortest_first\"\n");
  EXPECT_EQ(c.scheduler.runtime_prediction, RuntimePrediction::kUserLast2);
  EXPECT_EQ(c.scheduler.backfill_order, BackfillOrder::kShortestFirst);
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[scheduler]\nruntime_prediction = \"user_last_3\"\n"),
                  "scheduler.runtime_prediction: invalid value 'user_last_3' (expected none or user_last_2)");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[scheduler]\nbackfill_order = \"sjf\"\n"),
                  "scheduler.backfill_order: invalid value 'sjf'");
}

TEST(Config, ShippedSiteProfilesParse) {
  for (const char* name : {"sigma2", "hpc2n-akka", "kebnekaise", "titan"}) {
    const std::string path = std::string(FAIRWAY_SOURCE_DIR) + "/examples/profiles/" + name + ".toml";
    auto c = load_config_file(path);
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_FALSE(c->nodes.empty()) << path;
  }
}

TEST(Config, LimitsParse) {
  Config c = parse_ok(std::string(kNode) + R"(
[[accounts]]
name = "snac"
maxps_soft = 1000
maxps_hard = 3000
[limits]
max_eligible_jobs_per_user = 8
max_eligible_jobs_per_account = 30
max_active_jobs_per_user = 72
max_submitted_jobs_per_user = 3000
maxps_soft = 72000
maxps_hard = 1080000
maxps_per = "account"
)");
  EXPECT_EQ(c.limits.max_eligible_jobs_per_user, 8);
  EXPECT_EQ(c.limits.max_eligible_jobs_per_account, 30);
  EXPECT_EQ(c.limits.max_active_jobs_per_user, 72);
  EXPECT_EQ(c.limits.max_submitted_jobs_per_user, 3000);
  EXPECT_DOUBLE_EQ(*c.limits.maxps_soft, 72000);
  EXPECT_DOUBLE_EQ(*c.limits.maxps_hard, 1080000);
  EXPECT_EQ(c.limits.maxps_scope, LimitScope::kAccount);
  EXPECT_DOUBLE_EQ(*c.accounts[0].maxps_soft, 1000);
  EXPECT_FALSE(parse_ok(kNode).limits.max_eligible_jobs_per_user.has_value());
}

TEST(Config, LimitsErrorsNameKeyAndValue) {
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[limits]\nmax_eligible_jobs_per_user = 0\n"),
                  "limits.max_eligible_jobs_per_user");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[limits]\nmaxps_soft = 10\nmaxps_hard = 5\n"),
                  "limits.maxps_hard: must be >= maxps_soft");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[limits]\nmaxps_per = \"group\"\n"),
                  "limits.maxps_per: invalid value 'group'");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[limits]\nmax_jobs = 3\n"),
                  "limits.max_jobs: unknown key");
}

TEST(Config, TitanStyleKeysParse) {
  Config c = parse_ok(std::string(kNode) + R"(
[[partitions]]
name = "debug"
max_jobs_per_user = 1
[fairshare.target_share]
user_target_percent = 5
user_minutes_per_percent = 30
account_target_percent = 10
account_minutes_per_percent = 60
)");
  EXPECT_EQ(c.partitions[0].max_jobs_per_user, 1);
  ASSERT_TRUE(c.fairshare.target_share.has_value());
  EXPECT_DOUBLE_EQ(c.fairshare.target_share->account_minutes_per_percent, 60);
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[fairshare.target_share]\nuser_target_percent = 150\n"),
                  "fairshare.target_share: target percents must be <= 100");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[fairshare.target_share]\nuser_target = 5\n"),
                  "fairshare.target_share.user_target: unknown key");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[[partitions]]\nname = \"p\"\nmax_jobs_per_user = 0\n"),
                  "partitions[0].max_jobs_per_user");
}

}  // namespace
}  // namespace fairway
