// The issue 3 factors as the Scheduler applies them: age from the idle queue, bypass
// counts kept by the backfill engine, Fair Tree ranks and sliding fair-share windows.
#include <gtest/gtest.h>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::job;
using testing::T;

// One 4-core node, full: jobs submitted now all wait.
std::unique_ptr<Scheduler> full_node(Config c) {
  auto s = testing::make(c);
  EXPECT_TRUE(s->submit(job(1, 4, 100000, 0, "filler"), T(0)));
  s->schedule(T(0));
  return s;
}

Config one_eligible_per_user(AgeFrom from) {
  Config c = testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy);
  c.limits.max_eligible_jobs_per_user = 1;
  c.priority.age_from = from;
  return c;
}

// Maui: "Queued time. This is the time since the job entered the idle part of the queue."
TEST(AgeFromIdle, BlockedJobsDoNotAge) {
  auto s = full_node(one_eligible_per_user(AgeFrom::kIdle));
  ASSERT_TRUE(s->submit(job(10, 4, 3600, 0, "u"), T(0)));
  ASSERT_TRUE(s->submit(job(11, 4, 3600, 0, "u"), T(0)));
  s->schedule(T(60));
  s->schedule(T(660));
  EXPECT_DOUBLE_EQ(s->job(JobId(10))->priority.age, 10);  // idle since the pass at 60
  EXPECT_EQ(s->job(JobId(11))->state, JobState::kBlocked);
  EXPECT_DOUBLE_EQ(s->job(JobId(11))->priority.age, 0);
  // Job 10 leaves; 11 becomes idle at 720 and ages from there.
  ASSERT_TRUE(s->cancel(JobId(10), T(700)));
  s->schedule(T(720));
  s->schedule(T(1320));
  EXPECT_EQ(s->job(JobId(11))->state, JobState::kPending);
  EXPECT_DOUBLE_EQ(s->job(JobId(11))->priority.age, 10);
}

TEST(AgeFromIdle, EligibleModeAgesBlockedJobsFromSubmission) {
  auto s = full_node(one_eligible_per_user(AgeFrom::kEligible));
  ASSERT_TRUE(s->submit(job(10, 4, 3600, 0, "u"), T(0)));
  ASSERT_TRUE(s->submit(job(11, 4, 3600, 0, "u"), T(0)));
  s->schedule(T(600));
  EXPECT_EQ(s->job(JobId(11))->state, JobState::kBlocked);
  EXPECT_DOUBLE_EQ(s->job(JobId(11))->priority.age, 10);
}

// Hold resets the idle clock too: a held job is not in the idle queue.
TEST(AgeFromIdle, HoldRestartsTheIdleClock) {
  auto s = full_node(one_eligible_per_user(AgeFrom::kIdle));
  ASSERT_TRUE(s->submit(job(10, 4, 3600, 0, "u"), T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->hold(JobId(10)));
  ASSERT_TRUE(s->release(JobId(10), T(600)));
  s->schedule(T(1200));
  s->schedule(T(1800));
  EXPECT_DOUBLE_EQ(s->job(JobId(10))->priority.age, 10);
}

// A 4-core job waits for the node; a 2-core job that ends before the reservation starts
// beside the 2-core runner: the top job was bypassed once, and the weight shows it.
TEST(BypassCount, CountsLowerPriorityJobsStartedWhileAJobWaits) {
  Config c = testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy);
  c.priority.bypass = 50;
  auto s = testing::make(c);
  ASSERT_TRUE(s->submit(job(1, 2, 1000, 0, "runner"), T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->submit(job(2, 4, 1000, 0, "top"), T(0)));
  ASSERT_TRUE(s->submit(job(3, 2, 500, 0, "small"), T(60)));
  PassResult r = s->schedule(T(60));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(3));
  EXPECT_EQ(s->job(JobId(2))->bypass_count, 1);
  s->schedule(T(120));
  EXPECT_EQ(s->job(JobId(2))->bypass_count, 1) << "nothing started in this pass";
  EXPECT_DOUBLE_EQ(s->job(JobId(2))->priority.bypass, 50);
}

// Strict order never starts a job past a waiting one: no bypass.
TEST(BypassCount, StrictOrderNeverBypasses) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 4, BackfillMode::kNone));
  ASSERT_TRUE(s->submit(job(1, 2, 1000, 0, "runner"), T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->submit(job(2, 4, 1000, 0, "top"), T(0)));
  ASSERT_TRUE(s->submit(job(3, 2, 500, 0, "small"), T(60)));
  EXPECT_TRUE(s->schedule(T(60)).started.empty());
  EXPECT_EQ(s->job(JobId(2))->bypass_count, 0);
}

TEST(ExpansionFactor, ShortJobsGainFasterThanLongOnes) {
  Config c = testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy);
  c.priority.age_per_minute = 0;
  c.priority.expansion_factor = 100;
  auto s = full_node(c);
  ASSERT_TRUE(s->submit(job(10, 4, 600, 0, "a"), T(0)));
  ASSERT_TRUE(s->submit(job(11, 4, 6000, 0, "b"), T(0)));
  s->schedule(T(600));
  EXPECT_DOUBLE_EQ(s->job(JobId(10))->priority.expansion, 200);
  EXPECT_DOUBLE_EQ(s->job(JobId(11))->priority.expansion, 110);
}

TEST(QueueTarget, FactorIsOneAtTheTarget) {
  Config c = testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy);
  c.priority.queue_target = 1000;
  c.priority.queue_target_time = Duration::hours(1);
  auto s = full_node(c);
  ASSERT_TRUE(s->submit(job(10, 4, 600, 0, "a"), T(0)));
  s->schedule(T(3600));
  EXPECT_DOUBLE_EQ(s->job(JobId(10))->priority.queue_target, 1000);
}

// Maui's targeted queue time comes from the job's QOS; a QOS without one uses the global.
TEST(QueueTarget, EachQosHasItsOwnTarget) {
  Config c = testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy);
  c.priority.queue_target = 1000;
  c.priority.queue_target_time = Duration::hours(4);
  QosConfig short_qos;
  short_qos.name = "short";
  short_qos.queue_target_time = Duration::hours(1);
  QosConfig normal_qos;
  normal_qos.name = "normal";
  c.qos = {short_qos, normal_qos};
  auto s = full_node(c);
  JobSpec fast = job(10, 4, 600, 0, "a");
  fast.qos = "short";
  JobSpec slow = job(11, 4, 600, 0, "b");
  slow.qos = "normal";
  ASSERT_TRUE(s->submit(fast, T(0)));
  ASSERT_TRUE(s->submit(slow, T(0)));
  s->schedule(T(3600));
  EXPECT_DOUBLE_EQ(s->job(JobId(10))->priority.queue_target, 1000);  // at its 1 h target
  EXPECT_DOUBLE_EQ(s->job(JobId(11))->priority.queue_target,
                   1000 * queue_target_factor(Duration::hours(1), Duration::hours(4)));
  EXPECT_LT(s->job(JobId(11))->priority.queue_target, 100);
}

// fairshare.mode = "fair_tree": the factor is the user's rank / users.
TEST(FairTreeMode, PriorityUsesTheRank) {
  Config c = testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy);
  c.priority.age_per_minute = 0;
  c.priority.fairshare = 1000;
  c.fairshare.mode = FairShareMode::kFairTree;
  auto s = testing::make(c);
  ASSERT_TRUE(s->submit(job(1, 4, 100000, 0, "heavy"), T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->submit(job(10, 4, 600, 0, "heavy"), T(10)));
  ASSERT_TRUE(s->submit(job(11, 4, 600, 0, "light"), T(10)));
  s->schedule(T(100));
  EXPECT_DOUBLE_EQ(s->job(JobId(11))->priority.fairshare, 1000);
  EXPECT_DOUBLE_EQ(s->job(JobId(10))->priority.fairshare, 500);
}

}  // namespace
}  // namespace fairway
