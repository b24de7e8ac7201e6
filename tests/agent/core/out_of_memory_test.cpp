#include "agent/core/out_of_memory.h"

#include <gtest/gtest.h>

namespace fairway::agent {
namespace {

TEST(OutOfMemory, AFailedJobWhoseCgroupSawOomKillsEndedOutOfMemory) {
  JobState state = JobState::kFailed;
  std::string reason;
  EXPECT_TRUE(mark_out_of_memory(2, std::int64_t{512} << 20, "n1", state, reason));
  EXPECT_EQ(state, JobState::kOutOfMemory);
  EXPECT_EQ(reason, "out of memory: the kernel killed 2 of its processes at its limit of 512 MiB on node n1");
}

TEST(OutOfMemory, ACompletedJobToo_AndWithoutALimitNoneIsNamed) {
  JobState state = JobState::kCompleted;
  std::string reason;
  EXPECT_TRUE(mark_out_of_memory(1, std::nullopt, "n2", state, reason));
  EXPECT_EQ(state, JobState::kOutOfMemory);
  EXPECT_EQ(reason, "out of memory: the kernel killed 1 of its processes on node n2");
}

TEST(OutOfMemory, NoKillOrAnEndTheAgentDecidedStaysAsItIs) {
  for (JobState s : {JobState::kCancelled, JobState::kTimeout, JobState::kNodeFail}) {
    JobState state = s;
    std::string reason = "why";
    EXPECT_FALSE(mark_out_of_memory(3, std::nullopt, "n1", state, reason));
    EXPECT_EQ(state, s);
    EXPECT_EQ(reason, "why");
  }
  JobState state = JobState::kFailed;
  std::string reason;
  EXPECT_FALSE(mark_out_of_memory(0, std::nullopt, "n1", state, reason));
  EXPECT_EQ(state, JobState::kFailed);
  EXPECT_TRUE(reason.empty());
}

}  // namespace
}  // namespace fairway::agent
