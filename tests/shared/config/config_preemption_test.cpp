// A partition's preemption keys (owner partitions, seed 004): what parses, and what each
// bad value is told.
#include <gtest/gtest.h>

#include <string>

#include "config_test_util.h"
#include "shared/config/config.h"

namespace fairway {
namespace {

using config_test::kNode;
using config_test::parse_error;
using config_test::parse_ok;

std::string partitions(const std::string& general_keys) {
  return std::string(kNode) + "[[partitions]]\nname = \"owner\"\nnodes = \"cn[1-2]\"\npriority_tier = 2\n" +
         "[[partitions]]\nname = \"general\"\ndefault = true\n" + general_keys;
}

TEST(ConfigPreemption, TierModeExemptTimeAndGrace) {
  Config c =
      parse_ok(partitions("preempt = \"requeue\"\npreempt_exempt_time = \"10m\"\npreempt_grace = \"30s\"\n"));
  EXPECT_EQ(c.partitions[0].priority_tier, 2);
  EXPECT_EQ(c.partitions[0].preempt, PreemptMode::kOff);
  EXPECT_EQ(c.partitions[1].priority_tier, 0);
  EXPECT_EQ(c.partitions[1].preempt, PreemptMode::kRequeue);
  EXPECT_EQ(c.partitions[1].preempt_exempt_time, Duration::minutes(10));
  EXPECT_EQ(c.partitions[1].preempt_grace, Duration::seconds(30));
  EXPECT_EQ(parse_ok(partitions("preempt = \"cancel\"\n")).partitions[1].preempt, PreemptMode::kCancel);
}

TEST(ConfigPreemption, BadValuesNameTheKeyAndTheValue) {
  EXPECT_CONTAINS(parse_error(partitions("preempt = \"suspend\"\n")),
                  "partitions[1].preempt: invalid value 'suspend' (expected off, requeue or cancel)");
  EXPECT_CONTAINS(parse_error(partitions("preempt_grace = \"30s\"\n")),
                  "partitions[1].preempt_grace: set on partition 'general', whose jobs are not preemptable");
  EXPECT_CONTAINS(parse_error(partitions("preempt = \"requeue\"\npreempt_grace = -5\n")),
                  "partitions[1].preempt_grace: must be >= 0 seconds, got -5");
  EXPECT_CONTAINS(parse_error(partitions("preempt = \"requeue\"\npreempt_exempt_time = \"UNLIMITED\"\n")),
                  "partitions[1].preempt_exempt_time: must be finite");
  EXPECT_CONTAINS(parse_error(std::string(kNode) + "[[partitions]]\nname = \"p\"\npriority_tier = -1\n"),
                  "partitions[0].priority_tier");
  EXPECT_CONTAINS(
      parse_error(std::string(kNode) + "[[partitions]]\nname = \"p\"\npriority_tier = \"high\"\n"),
      "partitions[0].priority_tier");
}

}  // namespace
}  // namespace fairway
