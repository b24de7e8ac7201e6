// The issue 3 keys: Maui factors in [priority], [fairshare] window and mode,
// [[node_bins]], [[allocation_overuse]] and [[accounts]] allocation.
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

std::string with_node(const char* text) {
  return std::string(kNode) + text;
}

Config load_profile(const std::string& name) {
  auto c = load_config_file(std::string(FAIRWAY_SOURCE_DIR) + "/examples/profiles/" + name + ".toml");
  EXPECT_TRUE(c) << c.error().message;
  return c ? *c : Config{};
}

TEST(ConfigPriorityFactors, MauiKeysParse) {
  const Config c = parse_ok(with_node(R"(
[priority]
expansion_factor = 1000
bypass = 60
queue_target = 500
queue_target_time = "4h"
age_from = "idle"
)"));
  EXPECT_DOUBLE_EQ(c.priority.expansion_factor, 1000);
  EXPECT_DOUBLE_EQ(c.priority.bypass, 60);
  EXPECT_DOUBLE_EQ(c.priority.queue_target, 500);
  EXPECT_EQ(c.priority.queue_target_time, Duration::hours(4));
  EXPECT_EQ(c.priority.age_from, AgeFrom::kIdle);
  const Config d = parse_ok(kNode);
  EXPECT_EQ(d.priority.age_from, AgeFrom::kEligible);
  EXPECT_DOUBLE_EQ(d.priority.expansion_factor, 0);
  EXPECT_TRUE(d.priority.queue_target_time.is_infinite());
}

TEST(ConfigPriorityFactors, BadMauiKeysAreNamed) {
  EXPECT_CONTAINS(parse_error(with_node("[priority]\nage_from = \"submit\"\n")),
                  "cluster.toml: priority.age_from: invalid value 'submit' (expected eligible or idle)");
  EXPECT_CONTAINS(parse_error(with_node("[priority]\nexpansion_factor = -1\n")),
                  "priority.expansion_factor: must be >= 0, got -1");
  EXPECT_CONTAINS(parse_error(with_node("[priority]\nbypass = \"x\"\n")), "priority.bypass");
  EXPECT_CONTAINS(parse_error(with_node("[priority]\nqueue_target = 5\n")),
                  "priority.queue_target: is 5.000000 but neither priority.queue_target_time nor"
                  " any qos.queue_target_time is set");
  EXPECT_CONTAINS(parse_error(with_node("[[qos]]\nname = \"short\"\nqueue_target_time = \"0\"\n")),
                  "qos[0].queue_target_time: must be positive, not 00:00:00");
  EXPECT_CONTAINS(parse_error(with_node("[priority]\nqueue_target_time = 0\n")),
                  "priority.queue_target_time: must be > 0");
}

TEST(ConfigPriorityFactors, QueueTargetPerQos) {
  const Config c = parse_ok(
      with_node("[priority]\nqueue_target = 100\n[[qos]]\nname = \"short\"\nqueue_target_time = \"2h\"\n"
                "[[qos]]\nname = \"long\"\n"));
  ASSERT_EQ(c.qos.size(), 2u);
  EXPECT_EQ(c.qos[0].queue_target_time, Duration::hours(2));
  EXPECT_FALSE(c.qos[1].queue_target_time.has_value());
  EXPECT_TRUE(c.priority.queue_target_time.is_infinite());
}

TEST(ConfigPriorityFactors, WindowWeight) {
  EXPECT_TRUE(parse_ok(with_node("[fairshare]\nwindow = \"50d\"\nwindow_weight = \"linear\"\n"))
                  .fairshare.window_fades);
  EXPECT_FALSE(parse_ok(with_node("[fairshare]\nwindow = \"8w\"\n")).fairshare.window_fades);
  EXPECT_CONTAINS(parse_error(with_node("[fairshare]\nwindow = \"8w\"\nwindow_weight = \"cubic\"\n")),
                  "fairshare.window_weight: invalid value 'cubic' (expected flat or linear)");
  EXPECT_CONTAINS(parse_error(with_node("[fairshare]\nwindow_weight = \"linear\"\n")),
                  "fairshare.window_weight: is set but fairshare.window is not");
}

TEST(ConfigPriorityFactors, FairShareWindowAndMode) {
  const Config c = parse_ok(with_node("[fairshare]\nwindow = \"8w\"\nmode = \"fair_tree\"\n"));
  ASSERT_TRUE(c.fairshare.window.has_value());
  EXPECT_EQ(*c.fairshare.window, Duration::days(56));
  EXPECT_EQ(c.fairshare.mode, FairShareMode::kFairTree);
  const Config d = parse_ok(kNode);
  EXPECT_FALSE(d.fairshare.window.has_value());
  EXPECT_EQ(d.fairshare.mode, FairShareMode::kClassic);
  EXPECT_CONTAINS(parse_error(with_node("[fairshare]\nwindow = \"8w\"\nhalf_life = \"14d\"\n")),
                  "fairshare.window: set either window or half_life, not both");
  EXPECT_CONTAINS(parse_error(with_node("[fairshare]\nwindow = \"30m\"\n")),
                  "fairshare.window: must be finite and >= 1 hour (the bucket size), got 00:30:00");
  EXPECT_CONTAINS(parse_error(with_node("[fairshare]\nwindow = 0\n")), "fairshare.window: must be > 0");
  EXPECT_CONTAINS(parse_error(with_node("[fairshare]\nmode = \"tree\"\n")),
                  "fairshare.mode: invalid value 'tree' (expected classic or fair_tree)");
}

TEST(ConfigPriorityFactors, NodeBinsParse) {
  const Config c = parse_ok(with_node(R"(
[[node_bins]]
name = "1"
min_nodes = 100
aging_boost = "15d"
max_time = "24h"
[[node_bins]]
name = "5"
min_nodes = 1
max_nodes = 99
max_time = "2h"
max_running_jobs_per_user = 2
)"));
  ASSERT_EQ(c.node_bins.size(), 2u);
  EXPECT_EQ(c.node_bins[0].name, "1");
  EXPECT_EQ(c.node_bins[0].min_nodes, 100);
  EXPECT_FALSE(c.node_bins[0].max_nodes.has_value());
  EXPECT_EQ(c.node_bins[0].aging_boost, Duration::days(15));
  EXPECT_EQ(c.node_bins[0].max_time, Duration::hours(24));
  EXPECT_FALSE(c.node_bins[0].max_running_jobs_per_user.has_value());
  EXPECT_EQ(c.node_bins[1].max_nodes, 99);
  EXPECT_EQ(c.node_bins[1].aging_boost, Duration());
  EXPECT_EQ(c.node_bins[1].max_running_jobs_per_user, 2);
  EXPECT_TRUE(parse_ok(kNode).node_bins.empty());
}

TEST(ConfigPriorityFactors, BadNodeBinsAreNamed) {
  EXPECT_CONTAINS(parse_error(with_node("[[node_bins]]\nmin_nodes = 1\n")), "node_bins[0]");
  EXPECT_CONTAINS(parse_error(with_node("[[node_bins]]\nname = \"a\"\n")), "node_bins[0]");
  EXPECT_CONTAINS(parse_error(with_node("[[node_bins]]\nname = \"a\"\nmin_nodes = 0\n")),
                  "node_bins[0].min_nodes: must be >= 1, got 0");
  EXPECT_CONTAINS(parse_error(with_node("[[node_bins]]\nname = \"a\"\nmin_nodes = 10\nmax_nodes = 5\n")),
                  "node_bins[0].max_nodes: must be >= 10, got 5");
  EXPECT_CONTAINS(
      parse_error(with_node("[[node_bins]]\nname = \"a\"\nmin_nodes = 1\nmax_running_jobs_per_user = 0\n")),
      "node_bins[0].max_running_jobs_per_user: must be >= 1, got 0");
  EXPECT_CONTAINS(parse_error(with_node("[[node_bins]]\nname = \"a\"\nmin_nodes = 1\nmax_time = 0\n")),
                  "node_bins[0].max_time: must be > 0");
  EXPECT_CONTAINS(parse_error(with_node("[[node_bins]]\nname = \"a\"\nmin_nodes = 1\nboost = 1\n")), "boost");
  EXPECT_CONTAINS(parse_error(with_node(R"(
[[node_bins]]
name = "a"
min_nodes = 1
max_nodes = 10
[[node_bins]]
name = "b"
min_nodes = 10
)")),
                  "cluster.toml: node_bins[1]: nodes 10-unbounded overlap bin 'a' (1-10)");
  EXPECT_CONTAINS(parse_error(with_node(R"(
[[node_bins]]
name = "a"
min_nodes = 1
max_nodes = 10
[[node_bins]]
name = "a"
min_nodes = 11
)")),
                  "node_bins[1].name: duplicate bin 'a' (already node_bins[0])");
}

TEST(ConfigPriorityFactors, AllocationOveruseAndAccountAllocation) {
  const Config c = parse_ok(with_node(R"(
[[accounts]]
name = "proj"
allocation = 2000000
[[allocation_overuse]]
min_percent = 100
priority_penalty = "30d"
[[allocation_overuse]]
min_percent = 125
priority_penalty = "365d"
max_running_jobs = 1
)"));
  ASSERT_EQ(c.accounts.size(), 1u);
  EXPECT_EQ(c.accounts[0].allocation, 2000000.0);
  ASSERT_EQ(c.allocation_overuse.size(), 2u);
  EXPECT_DOUBLE_EQ(c.allocation_overuse[0].min_percent, 100);
  EXPECT_EQ(c.allocation_overuse[0].priority_penalty, Duration::days(30));
  EXPECT_FALSE(c.allocation_overuse[0].max_running_jobs.has_value());
  EXPECT_EQ(c.allocation_overuse[1].priority_penalty, Duration::days(365));
  EXPECT_EQ(c.allocation_overuse[1].max_running_jobs, 1);
}

TEST(ConfigPriorityFactors, BadOveruseKeysAreNamed) {
  EXPECT_CONTAINS(parse_error(with_node("[[accounts]]\nname = \"p\"\nallocation = 0\n")),
                  "accounts[0].allocation: must be > 0");
  EXPECT_CONTAINS(parse_error(with_node("[[allocation_overuse]]\npriority_penalty = \"30d\"\n")),
                  "allocation_overuse[0]");
  EXPECT_CONTAINS(
      parse_error(with_node(
          "[[allocation_overuse]]\nmin_percent = 125\n[[allocation_overuse]]\nmin_percent = 100\n")),
      "allocation_overuse[1].min_percent: must be above the previous tier's 125.000000, got 100.000000");
  EXPECT_CONTAINS(parse_error(with_node("[[allocation_overuse]]\nmin_percent = 100\nmax_running_jobs = 0\n")),
                  "allocation_overuse[0].max_running_jobs: must be >= 1, got 0");
  EXPECT_CONTAINS(
      parse_error(with_node("[[allocation_overuse]]\nmin_percent = 100\npriority_penalty = \"soon\"\n")),
      "allocation_overuse[0].priority_penalty");
}

// The shipped profiles use the new keys with the seeds' numbers.
TEST(ConfigPriorityFactors, ShippedProfilesUseThem) {
  auto titan = load_profile("titan");
  ASSERT_EQ(titan.node_bins.size(), 5u);
  EXPECT_EQ(titan.node_bins[0].min_nodes, 11250);
  EXPECT_EQ(titan.node_bins[0].aging_boost, Duration::days(15));
  EXPECT_EQ(titan.node_bins[1].aging_boost, Duration::days(5));
  EXPECT_EQ(titan.node_bins[4].max_time, Duration::hours(2));
  EXPECT_EQ(titan.node_bins[4].max_running_jobs_per_user, 2);
  EXPECT_EQ(titan.fairshare.window, Duration::days(56));
  ASSERT_EQ(titan.allocation_overuse.size(), 2u);
  EXPECT_EQ(titan.allocation_overuse[1].max_running_jobs, 1);
  EXPECT_EQ(load_profile("kebnekaise").fairshare.window, Duration::days(50));
  const Config akka = load_profile("hpc2n-akka");
  EXPECT_EQ(akka.priority.age_from, AgeFrom::kIdle);
  EXPECT_GT(akka.priority.expansion_factor, 0);
}

}  // namespace
}  // namespace fairway
