// OLCF Titan's worked examples (seed 000), run by the real core with the shipped profile
// examples/profiles/titan.toml.
#include <gtest/gtest.h>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;
constexpr auto job = testing::account_job;

std::unique_ptr<Scheduler> titan() { return testing::make(testing::profile("titan")); }

// Usage over the last weeks: project X (user x1) 87.5 %, project Q (user q1) 12.5 %.
std::unique_ptr<Scheduler> with_history() {
  auto s = titan();
  EXPECT_TRUE(s->submit(job(1, "x1", "X", 112, 3600), T(0)));
  EXPECT_TRUE(s->submit(job(2, "q1", "Q", 16, 3600), T(0)));
  s->schedule(T(0));
  EXPECT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(3600)));
  EXPECT_TRUE(s->finish(JobId(2), JobState::kCompleted, T(3600)));
  return s;
}

// "A user who has personally used 0.0% of the system's utilization over the past (8)
// weeks who is on a project that has also used 0.0% ... will get a (12.5) hour bonus
// (5 * 30 min for the user + 10 * 1 hour for the project)."
TEST(Titan, UnusedUserOnUnusedProjectGetsATwelveAndAHalfHourBonus) {
  auto s = with_history();
  ASSERT_TRUE(s->submit(job(10, "newcomer", "P", 16, 3600), T(7200)));
  s->schedule(T(7200));
  EXPECT_NEAR(s->job(JobId(10))->priority.fairshare, 12.5 * 60, 1e-6);
}

// "A user who has personally used 0.0% of the system's utilization on a project that has
// used 12.5% of the system's utilization would get no bonus (5 * 30 min for the user -
// 2.5 * 1 hour for the project)."
TEST(Titan, UnusedUserOnAProjectAtTwelveAndAHalfPercentGetsNoBonus) {
  auto s = with_history();
  ASSERT_TRUE(s->submit(job(11, "q2", "Q", 16, 3600), T(7200)));
  s->schedule(T(7200));
  EXPECT_NEAR(s->job(JobId(11))->priority.fairshare, 0.0, 1e-6);
}

// Over the share, the same minutes are taken away: x1 (87.5 % of X, X at 87.5 %) is
// (5 - 87.5) * 30 + (10 - 87.5) * 60 minutes behind.
TEST(Titan, OverTheShareLosesMinutes) {
  auto s = with_history();
  ASSERT_TRUE(s->submit(job(12, "x1", "X", 16, 3600), T(7200)));
  s->schedule(T(7200));
  EXPECT_NEAR(s->job(JobId(12))->priority.fairshare, (5 - 87.5) * 30 + (10 - 87.5) * 60, 1e-6);
}

// debug: 1 hour at most, one job per user in any state, and a 2-day aging boost.
TEST(Titan, DebugQueue) {
  auto s = titan();
  JobSpec d = job(1, "u", "P", 16, 3600);
  d.partition = "debug";
  ASSERT_TRUE(s->submit(d, T(0)));
  JobSpec d2 = d;
  d2.id = JobId(2);
  auto st = s->submit(d2, T(0));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("already has 1 job(s) in partition 'debug'"), std::string::npos);
  JobSpec longer = d;
  longer.id = JobId(3);
  longer.user = "v";
  longer.time_limit = Duration::hours(2);
  EXPECT_FALSE(s->submit(longer, T(0)));
  JobSpec b = job(4, "v", "P", 16, 3600);
  ASSERT_TRUE(s->submit(b, T(0)));
  s->schedule(T(0));
  EXPECT_DOUBLE_EQ(s->job(JobId(1))->priority.total - s->job(JobId(4))->priority.total, 2 * 1440);
  // Once the debug job ends, the user may submit another.
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(600)));
  EXPECT_TRUE(s->submit(d2, T(600)));
}

// "Limit of (4) eligible-to-run jobs per user"; the rest wait blocked.
TEST(Titan, FourEligibleJobsPerUser) {
  auto s = titan();
  ASSERT_TRUE(s->submit(job(1, "big", "P", 18688 * 16, 3600), T(0)));  // fills the machine
  s->schedule(T(0));
  for (std::uint64_t id = 10; id < 16; ++id) ASSERT_TRUE(s->submit(job(id, "u", "P", 16, 3600), T(1)));
  s->schedule(T(2));
  int blocked = 0;
  for (std::uint64_t id = 10; id < 16; ++id) blocked += s->job(JobId(id))->state == JobState::kBlocked;
  EXPECT_EQ(blocked, 2);
}

}  // namespace
}  // namespace fairway
