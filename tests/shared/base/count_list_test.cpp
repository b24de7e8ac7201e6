// Slurm's compressed count lists (SLURM_TASKS_PER_NODE, SLURM_JOB_CPUS_PER_NODE).
#include "shared/base/count_list.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

TEST(CountList, RunsOfEqualCountsFoldAsSlurmWritesThem) {
  EXPECT_EQ(repeat_counts({}), "");
  EXPECT_EQ(repeat_counts({4}), "4");
  EXPECT_EQ(repeat_counts({2, 2}), "2(x2)");
  EXPECT_EQ(repeat_counts({2, 2, 2, 1}), "2(x3),1");
  EXPECT_EQ(repeat_counts({4, 2, 4}), "4,2,4") << "only neighbours fold";
}

}  // namespace
}  // namespace fairway
