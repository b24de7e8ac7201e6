// MAXPS held jobs and the time their limit opens: what running jobs owe shrinks as they run,
// so the scheduler names the moment a held job may start though nothing else happens.
#include <gtest/gtest.h>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

// One 240-core node with Akka's MAXPS: soft 72,000, hard 1,080,000 processor-seconds.
Config maxps_machine() {
  Config c = testing::uniform_cluster(1, 1, 240, BackfillMode::kEasy);
  c.limits.maxps_soft = 72000;
  c.limits.maxps_hard = 1080000;
  c.limits.maxps_scope = LimitScope::kUser;
  return c;
}

// The HPC2N trace's idle machine: a user's two 20-core, 12-hour jobs (864,000 PS each)
// cannot run together (hard limit), but the second may start once the first owes at most
// 216,000, 10,800 s before its end. No start, end or arrival happens then.
TEST(MaxPsLimit, HardHeldJobGetsTheTimeItsLimitOpens) {
  auto s = testing::make(maxps_machine());
  ASSERT_TRUE(s->submit(testing::job(1, 20, 43200, 0, "u"), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  ASSERT_TRUE(s->submit(testing::job(2, 20, 43200, 100, "u"), T(100)));
  PassResult r = s->schedule(T(100));
  EXPECT_TRUE(r.started.empty());
  EXPECT_TRUE(s->job(JobId(2))->why.has(PendingReason::kMaxPsHard));
  ASSERT_TRUE(r.recheck_at);
  EXPECT_EQ(*r.recheck_at, T(32400));  // 20 x (43200 - 32400) + 864000 = 1080000
  EXPECT_TRUE(s->schedule(T(32399)).started.empty()) << "one second early: 1,080,020 PS";
  r = s->schedule(T(32400));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(2));
  EXPECT_FALSE(r.recheck_at) << "nothing is held any more";
}

// Several running jobs decay at different rates until each one's time runs out; the
// limit opens once their sum, plus the candidate, is within it.
TEST(MaxPsLimit, ReleaseFollowsSeveralRunningJobsDecaying) {
  auto s = testing::make(maxps_machine());
  ASSERT_TRUE(s->submit(testing::job(1, 10, 1000, 0, "u"), T(0)));  // owes 10,000
  ASSERT_TRUE(s->submit(testing::job(2, 10, 5000, 0, "u"), T(0)));  // owes 50,000
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  // 10 x 1200 = 12,000: 72,000 total, within soft. Another 12,000 is over soft.
  ASSERT_TRUE(s->submit(testing::job(3, 10, 1200, 0, "u"), T(0)));
  ASSERT_TRUE(s->submit(testing::job(4, 10, 1200, 0, "u"), T(0)));
  // Another user's job within its soft limit keeps soft binding (waits for cores).
  ASSERT_TRUE(s->submit(testing::job(5, 240, 100, 0, "v"), T(0)));
  PassResult r = s->schedule(T(0));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(3));
  EXPECT_TRUE(s->job(JobId(4))->why.has(PendingReason::kMaxPsSoft));
  // Owed at d: 10(1000-d) + 10(5000-d) + 10(1200-d) + 12,000 <= 72,000 for d >= 400.
  ASSERT_TRUE(r.recheck_at);
  EXPECT_EQ(*r.recheck_at, T(400));
}

// A job that, with what its user runs, is over a limit that only a job's end can bring it
// under (the one second an overdue job is still counted) names no time: the end is an event.
TEST(MaxPsLimit, NoRecheckWhenOnlyAnEndOpensTheLimit) {
  auto s = testing::make(maxps_machine());
  ASSERT_TRUE(s->submit(testing::job(1, 100, 100, 0, "u"), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  // 100 cores still count one second after their limit: 100 + 1,080,000 > hard.
  ASSERT_TRUE(s->submit(testing::job(2, 100, 10800, 0, "u"), T(200)));
  PassResult r = s->schedule(T(200));
  EXPECT_TRUE(s->job(JobId(2))->why.has(PendingReason::kMaxPsHard));
  EXPECT_FALSE(r.recheck_at);
}

}  // namespace
}  // namespace fairway
