// The idle/blocked split under Maui's count limits (seed 002) with Akka's profile on Seth:
// a job MAXPS hard forbids now is blocked and leaves its idle slot to the next job.
#include <gtest/gtest.h>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

// The HPC2N replay's idle machine: user 1 runs a 24-core job owing 671,040 PS; its eight
// highest-priority waiting jobs are 24 cores x 27,960 s, each over the 1,080,000 hard limit
// with it. Before, those eight filled the user's idle slots and the small job behind them
// stayed blocked on the idle cap while 216 cores sat free.
TEST(EligibilityLimits, JobOverMaxPsHardTakesNoIdleSlot) {
  auto s = testing::make(testing::profile("hpc2n-seth"));
  ASSERT_TRUE(s->submit(testing::job(1, 24, 27960, 0, "u1"), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  for (std::uint64_t id = 10; id < 18; ++id) {
    ASSERT_TRUE(s->submit(testing::job(id, 24, 27960, 10, "u1"), T(10)));
  }
  ASSERT_TRUE(s->submit(testing::job(20, 10, 4500, 20, "u1"), T(20)));  // 45,000 PS
  PassResult r = s->schedule(T(20));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(20)) << "between soft and hard, nothing else eligible";
  for (std::uint64_t id = 10; id < 18; ++id) {
    const JobRecord* j = s->job(JobId(id));
    EXPECT_EQ(j->state, JobState::kBlocked) << id;
    EXPECT_EQ(j->why.codes(), "MaxPsHard") << id;
  }
  // Blocked for MAXPS, they still name when the first of them may start: jobs 1 and 20
  // must owe at most 1,080,000 - 671,040 = 408,960. Job 20 is counted down to its last
  // second by d = 4,499 (its end is an event of its own); then 24 x (27940 - d) + 10 fits
  // from d = 10,901.
  ASSERT_TRUE(r.recheck_at);
  EXPECT_EQ(*r.recheck_at, T(20 + 10901));
}

// Within the hard limit, a job stays in the idle part even over soft, as in the seed's
// showq: eight idle jobs of user1, none allowed to start by MAXPS soft.
TEST(EligibilityLimits, JobOverSoftOnlyKeepsItsIdleSlot) {
  auto s = testing::make(testing::profile("hpc2n-seth"));
  ASSERT_TRUE(s->submit(testing::job(1, 2, 36000, 0, "user1"), T(0)));
  // The rest of the machine: seven users, each 34 cores x 2000 s, within soft.
  for (std::uint64_t id = 2; id < 9; ++id) {
    ASSERT_TRUE(s->submit(testing::job(id, 34, 2000, 0, "other" + std::to_string(id)), T(0)));
  }
  ASSERT_EQ(s->schedule(T(0)).started.size(), 8u);
  for (std::uint64_t id = 10; id < 20; ++id) {
    ASSERT_TRUE(s->submit(testing::job(id, 8, 3600, 1052, "user1"), T(1052)));
  }
  s->schedule(T(1052));
  for (std::uint64_t id = 10; id < 18; ++id) EXPECT_EQ(s->job(JobId(id))->state, JobState::kPending) << id;
  for (std::uint64_t id = 18; id < 20; ++id) {
    EXPECT_EQ(s->job(JobId(id))->why.codes(), "UserEligibleLimit") << id;
  }
}

// Seed 002's example: 10 jobs give 8 idle and 2 blocked; "when one of the 'idle' jobs
// starts running, the newest of the 'blocked' jobs will be upgraded to 'idle' status".
// Returns the job promoted when the first idle one starts.
std::uint64_t promoted_after_first_start(BlockedPromotion order) {
  Config c = testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy);
  c.limits.max_eligible_jobs_per_user = 8;
  c.limits.promote_blocked = order;
  auto s = testing::make(c);
  EXPECT_TRUE(s->submit(testing::job(1, 4, 100, 0, "other"), T(0)));
  s->schedule(T(0));
  for (std::uint64_t id = 11; id <= 20; ++id) {
    const auto t = static_cast<std::int64_t>(id);
    EXPECT_TRUE(s->submit(testing::job(id, 4, 100, t, "u"), T(t)));
    s->schedule(T(t));
  }
  EXPECT_EQ(s->job(JobId(19))->state, JobState::kBlocked);
  EXPECT_EQ(s->job(JobId(20))->state, JobState::kBlocked);
  EXPECT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(100)));
  const PassResult r = s->schedule(T(100));
  EXPECT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started.at(0).id, JobId(11));
  s->schedule(T(101));  // the next pass sees the opened slot
  const bool b19 = s->job(JobId(19))->state == JobState::kBlocked;
  const bool b20 = s->job(JobId(20))->state == JobState::kBlocked;
  EXPECT_NE(b19, b20) << "exactly one of the two blocked jobs moves up";
  return b19 ? 20 : 19;
}

TEST(EligibilityLimits, TheNewestBlockedJobMovesUpAsTheSeedWordsIt) {
  EXPECT_EQ(promoted_after_first_start(BlockedPromotion::kNewest), 20u);
}

TEST(EligibilityLimits, ByPriorityTheOldestBlockedJobMovesUp) {
  EXPECT_EQ(promoted_after_first_start(BlockedPromotion::kPriority), 19u);
}

// Under kNewest a new submission does not push an idle job back into the blocked part.
TEST(EligibilityLimits, IdleJobsKeepTheirSlotsUnderNewest) {
  Config c = testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy);
  c.limits.max_eligible_jobs_per_user = 2;
  c.limits.promote_blocked = BlockedPromotion::kNewest;
  c.priority.qos = 1;
  c.qos = {QosConfig{"top", 100000, Duration::infinite(), std::nullopt, std::nullopt, {}}};
  auto s = testing::make(c);
  ASSERT_TRUE(s->submit(testing::job(1, 4, 100, 0, "other"), T(0)));
  ASSERT_TRUE(s->submit(testing::job(11, 4, 100, 1, "u"), T(1)));
  ASSERT_TRUE(s->submit(testing::job(12, 4, 100, 2, "u"), T(2)));
  s->schedule(T(2));
  JobSpec urgent = testing::job(13, 4, 100, 3, "u");
  urgent.qos = "top";
  ASSERT_TRUE(s->submit(urgent, T(3)));
  s->schedule(T(3));
  EXPECT_EQ(s->job(JobId(11))->state, JobState::kPending);
  EXPECT_EQ(s->job(JobId(12))->state, JobState::kPending);
  EXPECT_EQ(s->job(JobId(13))->state, JobState::kBlocked);
  EXPECT_EQ(s->job(JobId(13))->why.codes(), "UserEligibleLimit");
}

}  // namespace
}  // namespace fairway
