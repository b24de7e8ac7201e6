// The keys that express Palmetto 2's policy (seed 004): Slurm's two scheduling loops with
// the backfill loop's caps, and the interact partition's clamp and routing.
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

TEST(Config, SchedulerLoopKeysParse) {
  Config c = parse_ok(std::string(kNode) + R"(
[scheduler]
main_loop = true
backfill = "conservative"
backfill_max_jobs_per_user = 20
backfill_max_jobs_per_partition = 1000
)");
  EXPECT_TRUE(c.scheduler.main_loop);
  EXPECT_EQ(c.scheduler.backfill_max_jobs_per_user, 20);
  EXPECT_EQ(c.scheduler.backfill_max_jobs_per_partition, 1000);
  Config d = parse_ok(kNode);
  EXPECT_FALSE(d.scheduler.main_loop);
  EXPECT_FALSE(d.scheduler.backfill_max_jobs_per_user.has_value());
  EXPECT_FALSE(d.scheduler.backfill_max_jobs_per_partition.has_value());
}

TEST(Config, SchedulerLoopKeysAreValidated) {
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[scheduler]\nmain_loop = \"yes\"\n"),
                  "scheduler.main_loop");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[scheduler]\nbackfill_max_jobs_per_user = 0\n"),
                  "scheduler.backfill_max_jobs_per_user");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[scheduler]\nbackfill_max_jobs_per_partition = -3\n"),
                  "scheduler.backfill_max_jobs_per_partition");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[scheduler]\nbackfill_max_jobs_per_partition = -3\n"),
                  "-3");
}

TEST(Config, InteractPartitionKeysParse) {
  Config c = parse_ok(std::string(kNode) + R"(
[[partitions]]
name = "work1"
default = true
[[partitions]]
name = "interact"
max_time = "12h"
clamp_time_limit = true
default_for_interactive = true
)");
  EXPECT_FALSE(c.partitions[0].clamp_time_limit);
  EXPECT_FALSE(c.partitions[0].default_for_interactive);
  EXPECT_TRUE(c.partitions[1].clamp_time_limit);
  EXPECT_TRUE(c.partitions[1].default_for_interactive);
}

TEST(Config, InteractPartitionKeysAreValidated) {
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[[partitions]]\nname = \"i\"\nclamp_time_limit = true\n"),
                  "partitions[0].clamp_time_limit: true needs a finite max_time to clamp to (partition 'i')");
  EXPECT_CONTAINS(
      parse_error(std::string(kNode) + "[[partitions]]\nname = \"a\"\ndefault_for_interactive = true\n"
                                       "[[partitions]]\nname = \"b\"\ndefault_for_interactive = true\n"),
      "partitions[1].default_for_interactive: more than one interactive default ('a' and 'b')");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[[partitions]]\nname = \"i\"\nclamp_time_limit = 1\n"),
                  "partitions[0].clamp_time_limit");
}

TEST(Config, PalmettoAndSethProfilesParse) {
  for (const char* name : {"palmetto2", "hpc2n-seth"}) {
    const std::string path = std::string(FAIRWAY_SOURCE_DIR) + "/examples/profiles/" + name + ".toml";
    auto c = load_config_file(path);
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_FALSE(c->nodes.empty()) << path;
  }
}

}  // namespace
}  // namespace fairway
