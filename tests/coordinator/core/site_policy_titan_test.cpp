// OLCF Titan's worked examples (seed 000), run by the real core with the shipped profile
// examples/profiles/titan.toml.
#include <gtest/gtest.h>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;
constexpr auto job = testing::account_job;

std::unique_ptr<Scheduler> titan() {
  return testing::make(testing::profile("titan"));
}

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

// "Job Priority by Processor Count": bin 1 (11,250 nodes and up) ages 15 extra days,
// bin 2 (3,750 to 11,249) 5 days, the others none; a job's node count is its cores / 16.
TEST(Titan, NodeCountBinsGiveAgingBoosts) {
  auto s = titan();
  ASSERT_TRUE(s->submit(job(1, "a", "P", 11250 * 16, 3600), T(0)));
  ASSERT_TRUE(s->submit(job(2, "b", "P", 3750 * 16, 3600), T(0)));
  ASSERT_TRUE(s->submit(job(3, "c", "P", 3749 * 16, 3600), T(0)));
  ASSERT_TRUE(s->submit(job(4, "d", "P", 16, 3600), T(0)));
  s->schedule(T(0));
  EXPECT_DOUBLE_EQ(s->job(JobId(1))->priority.node_bin, 15 * 1440);
  EXPECT_DOUBLE_EQ(s->job(JobId(2))->priority.node_bin, 5 * 1440);
  EXPECT_DOUBLE_EQ(s->job(JobId(3))->priority.node_bin, 0);
  EXPECT_DOUBLE_EQ(s->job(JobId(4))->priority.node_bin, 0);
  // The boost counts like waiting: the bin-1 job ranks 15 days ahead.
  EXPECT_DOUBLE_EQ(s->job(JobId(1))->priority.total - s->job(JobId(4))->priority.total, 15 * 1440);
}

// "Max Walltime (Hours)": 24 for bins 1-2, 12 for bin 3, 6 for bin 4, 2 for bin 5.
TEST(Titan, AJobOverItsBinsWalltimeIsRefused) {
  auto s = titan();
  auto st = s->submit(job(1, "u", "P", 125 * 16, 3 * 3600), T(0));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("exceeds node bin '5' (125 nodes) max_time 02:00:00"), std::string::npos)
      << st.error().message;
  st = s->submit(job(2, "u", "P", 313 * 16, 13 * 3600), T(0));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("node bin '3'"), std::string::npos) << st.error().message;
  EXPECT_TRUE(s->submit(job(3, "u", "P", 126 * 16, 6 * 3600), T(0)));
  EXPECT_TRUE(s->submit(job(4, "u", "P", 3750 * 16, 24 * 3600), T(0)));
}

// "Users may have only (2) jobs in bin 5 running at any time. Any additional jobs will be
// blocked until one of the running jobs completes."
TEST(Titan, TheThirdBinFiveJobOfAUserWaits) {
  auto s = titan();
  for (std::uint64_t id = 1; id <= 3; ++id) ASSERT_TRUE(s->submit(job(id, "u", "P", 16, 3600), T(0)));
  ASSERT_TRUE(s->submit(job(4, "v", "P", 16, 3600), T(0)));
  ASSERT_TRUE(s->submit(job(5, "u", "P", 126 * 16, 3600), T(0)));  // bin 4: not capped
  PassResult r = s->schedule(T(0));
  EXPECT_EQ(r.started.size(), 4u);
  const JobRecord* third = s->job(JobId(3));
  EXPECT_EQ(third->state, JobState::kPending);
  EXPECT_EQ(third->why.codes(), "BinRunningLimit");
  EXPECT_EQ(s->job(JobId(4))->state, JobState::kRunning) << "another user's bin-5 job";
  EXPECT_EQ(s->job(JobId(5))->state, JobState::kRunning);
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(600)));
  r = s->schedule(T(600));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(3));
}

// "Allocation Overuse Policy": under 100 % nothing; 100 % to 125 % looks 30 days younger;
// above 125 % 365 days younger and "limited to only one running job at a time".
TEST(Titan, AllocationOveruseTiers) {
  Config c = testing::profile("titan");
  for (auto [name, hours] : {std::pair{"under", 100.0}, std::pair{"over", 14.0}, std::pair{"far", 10.0}}) {
    AccountConfig a;
    a.name = name;
    a.allocation = hours;  // core-hours; each project uses 16
    c.accounts.push_back(a);
  }
  auto s = testing::make(c);
  ASSERT_TRUE(s->submit(job(1, "u1", "under", 16, 3600), T(0)));
  ASSERT_TRUE(s->submit(job(2, "u2", "over", 16, 3600), T(0)));
  ASSERT_TRUE(s->submit(job(3, "u3", "far", 16, 3600), T(0)));
  s->schedule(T(0));
  for (std::uint64_t id = 1; id <= 3; ++id) ASSERT_TRUE(s->finish(JobId(id), JobState::kCompleted, T(3600)));
  // under: 16 %, over: 114 %, far: 160 %.
  ASSERT_TRUE(s->submit(job(11, "u1", "under", 16, 3600), T(3600)));
  ASSERT_TRUE(s->submit(job(12, "u2", "over", 16, 3600), T(3600)));
  ASSERT_TRUE(s->submit(job(13, "u2", "over", 16, 3600), T(3600)));
  ASSERT_TRUE(s->submit(job(14, "u3", "far", 16, 3600), T(3600)));
  ASSERT_TRUE(s->submit(job(15, "u4", "far", 16, 3600), T(3600)));
  s->schedule(T(3600));
  EXPECT_DOUBLE_EQ(s->job(JobId(11))->priority.overuse, 0);
  EXPECT_DOUBLE_EQ(s->job(JobId(12))->priority.overuse, -30 * 1440);
  EXPECT_DOUBLE_EQ(s->job(JobId(14))->priority.overuse, -365 * 1440);
  EXPECT_EQ(s->job(JobId(12))->state, JobState::kRunning);
  EXPECT_EQ(s->job(JobId(13))->state, JobState::kRunning) << "100-125 %: unlimited running";
  const int far_running =
      (s->job(JobId(14))->state == JobState::kRunning) + (s->job(JobId(15))->state == JobState::kRunning);
  EXPECT_EQ(far_running, 1);
  const JobRecord* waiting =
      s->job(JobId(14))->state == JobState::kRunning ? s->job(JobId(15)) : s->job(JobId(14));
  EXPECT_EQ(waiting->why.codes(), "OveruseRunningLimit");
}

// Overuse counts within the allocation year: a project far over its allocation in
// December starts January with a clean slate.
TEST(Titan, OveruseResetsWithTheAllocationYear) {
  Config c = testing::profile("titan");
  AccountConfig far;
  far.name = "far";
  far.allocation = 10.0;  // core-hours; the job below uses 16
  c.accounts.push_back(far);
  auto s = testing::make(c);
  const std::int64_t dec31 = 1767225600 - 86400;  // 2025-12-31T00:00:00Z
  ASSERT_TRUE(s->submit(job(1, "u", "far", 16, 3600), T(dec31)));
  s->schedule(T(dec31));
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(dec31 + 3600)));
  // Another project fills all but 688 nodes for a day; job 2 (1,000 nodes) waits.
  ASSERT_TRUE(s->submit(job(3, "o", "other", 16 * 18000, 86400), T(dec31 + 3600)));
  ASSERT_TRUE(s->submit(job(2, "u", "far", 16 * 1000, 3600), T(dec31 + 3600)));
  s->schedule(T(dec31 + 3600));
  ASSERT_EQ(s->job(JobId(2))->state, JobState::kPending);
  EXPECT_DOUBLE_EQ(s->job(JobId(2))->priority.overuse, -365 * 1440) << "160 % in December";
  s->schedule(T(dec31 + 86400));
  EXPECT_DOUBLE_EQ(s->job(JobId(2))->priority.overuse, 0) << "a new allocation year";
}

// "The 8-week history of usage": usage older than 8 weeks no longer counts at all.
TEST(Titan, FairShareForgetsUsageOlderThanEightWeeks) {
  auto s = with_history();
  const AssociationIndex x1 = s->job(JobId(1))->association;
  EXPECT_DOUBLE_EQ(s->fair_share().user_usage(x1, T(8 * 7 * 86400)), 112.0 * 3600) << "no decay";
  const Time eight_weeks_later = T(3600 + 8 * 7 * 86400);
  ASSERT_TRUE(s->submit(job(20, "x1", "X", 16, 3600), eight_weeks_later));
  s->schedule(eight_weeks_later);
  EXPECT_NEAR(s->job(JobId(20))->priority.fairshare, 12.5 * 60, 1e-6);
}

// "killable Queue Policy" with an outage (maintenance reservation over every node):
// "In the batch queue, the scheduler will not start a job if it expects that the job would
// not complete ... before the reservation's start time. In contrast, the killable queue
// allows the scheduler to start a job even if it will not complete before a scheduled
// reservation"; "The scheduler will stop scheduling jobs in the killable queue (1) hour
// before a scheduled outage"; "Jobs will be killed if still running when a system outage
// begins"; "Any killed jobs will be automatically re-queued after a system outage completes."
TEST(Titan, KillableQueueAndOutage) {
  Config c = testing::profile("titan");
  ReservationConfig outage;
  outage.name = "outage";
  outage.start = T(100000);
  outage.duration = Duration::hours(8);
  outage.all_nodes = true;
  outage.maintenance = true;
  c.reservations.push_back(outage);
  auto s = testing::make(c);

  const Time two_hours_before = T(100000 - 7000);
  JobSpec batch = job(1, "b", "P", 16, 7200);
  JobSpec killable = job(2, "k", "P", 16, 7200);
  killable.partition = "killable";
  ASSERT_TRUE(s->submit(batch, two_hours_before));
  ASSERT_TRUE(s->submit(killable, two_hours_before));
  s->schedule(two_hours_before);
  EXPECT_EQ(s->job(JobId(1))->state, JobState::kPending);
  EXPECT_TRUE(s->job(JobId(1))->why.has(PendingReason::kMaintenance));
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kRunning);

  JobSpec late = job(3, "l", "P", 16, 600);
  late.partition = "killable";
  ASSERT_TRUE(s->submit(late, T(100000 - 3000)));
  s->schedule(T(100000 - 3000));
  EXPECT_EQ(s->job(JobId(3))->state, JobState::kPending);  // within the hour
  EXPECT_TRUE(s->job(JobId(3))->why.has(PendingReason::kMaintenance));

  const PassResult at_outage = s->schedule(T(100000));
  ASSERT_EQ(at_outage.preempted.size(), 1u);
  EXPECT_EQ(at_outage.preempted[0].id, JobId(2));
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kPending);
  EXPECT_EQ(s->job(JobId(2))->reason, at_outage.preempted[0].reason);  // on the record itself
  EXPECT_TRUE(s->running().empty());

  const Time after = T(100000) + Duration::hours(8);
  s->schedule(after);
  for (std::uint64_t id : {1, 2, 3}) {
    EXPECT_EQ(s->job(JobId(id))->state, JobState::kRunning) << "job " << id;
    EXPECT_EQ(s->job(JobId(id))->start_time, after) << "job " << id;
  }
}

}  // namespace
}  // namespace fairway
