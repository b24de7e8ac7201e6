#include <gtest/gtest.h>

#include "coordinator/core/scheduler.h"
#include "tests/coordinator/core/test_cluster.h"

namespace fairway {
namespace {

using namespace testing;

Config two_partitions() {
  Config c = uniform_cluster(1, 1, 4, BackfillMode::kEasy);
  PartitionConfig batch;
  batch.name = "batch";
  batch.is_default = true;
  batch.max_time = Duration::hours(2);
  PartitionConfig quick;
  quick.name = "quick";
  quick.max_time = Duration::minutes(30);
  c.partitions = {batch, quick};
  return c;
}

// A job that states no limit (0) gets its partition's default_time, as Slurm's DefaultTime.
TEST(SchedulerUpdate, AJobWithoutATimeLimitGetsItsPartitionsDefault) {
  Config c = two_partitions();
  c.partitions[0].default_time = Duration::minutes(90);
  auto s = make(c);
  ASSERT_TRUE(s->submit(job(1, 1, 0), T(0)));
  EXPECT_EQ(s->job(JobId(1))->spec.time_limit, Duration::minutes(90));
  c.partitions[0].max_time = Duration::infinite();
  c.partitions[0].default_time = Duration::infinite();
  auto u = make(c);
  ASSERT_TRUE(u->submit(job(1, 1, 0), T(0)));
  EXPECT_TRUE(u->job(JobId(1))->spec.time_limit.is_infinite());
}

TEST(SchedulerUpdate, AWaitingJobIsCheckedAgainAndKeepsItsAgeAndHold) {
  auto s = make(two_partitions());
  ASSERT_TRUE(s->submit(job(1, 4, 3600), T(0)));  // fills the node
  JobSpec waiting = job(2, 2, 3600);
  waiting.hold = true;
  ASSERT_TRUE(s->submit(waiting, T(10)));
  s->schedule(T(20));
  ASSERT_EQ(s->job(JobId(2))->state, JobState::kHeld);

  JobChanges too_long;
  too_long.partition = "quick";
  auto refused = s->update(JobId(2), too_long);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("exceeds partition 'quick' max_time"), std::string::npos)
      << refused.error().message;
  EXPECT_EQ(s->job(JobId(2))->spec.partition, "batch") << "a refused change leaves the job as it was";
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kHeld);

  JobChanges move;
  move.partition = "quick";
  move.time_limit = Duration::minutes(20);
  move.name = "renamed";
  ASSERT_TRUE(s->update(JobId(2), move));
  const JobRecord* j = s->job(JobId(2));
  EXPECT_EQ(j->spec.partition, "quick");
  EXPECT_EQ(j->spec.time_limit, Duration::minutes(20));
  EXPECT_EQ(j->spec.name, "renamed");
  EXPECT_EQ(j->state, JobState::kHeld);
  EXPECT_EQ(j->eligible_since, T(10)) << "its age counts from its submission, not the update";
  EXPECT_EQ(s->waiting().size(), 1u);

  JobChanges unknown;
  unknown.partition = "nope";
  EXPECT_FALSE(s->update(JobId(2), unknown));
  EXPECT_FALSE(s->update(JobId(99), move));
}

TEST(SchedulerUpdate, ARunningJobChangesOnlyItsLimitNameAndComment) {
  auto s = make(two_partitions());
  ASSERT_TRUE(s->submit(job(1, 4, 3600), T(0)));
  ASSERT_TRUE(s->submit(job(2, 4, 600), T(0)));
  s->schedule(T(0));
  ASSERT_EQ(s->job(JobId(1))->state, JobState::kRunning);
  JobChanges move;
  move.partition = "quick";
  auto refused = s->update(JobId(1), move);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            "job 1 is running: only TimeLimit, JobName and Comment can change once it runs");
  JobChanges shorter;
  shorter.time_limit = Duration::minutes(10);
  shorter.comment = "checkpointed";
  ASSERT_TRUE(s->update(JobId(1), shorter));
  EXPECT_EQ(s->job(JobId(1))->spec.time_limit, Duration::minutes(10));
  EXPECT_EQ(s->job(JobId(1))->estimated_end(T(60)), T(600)) << "backfill plans with the new end";
  JobChanges zero;
  zero.time_limit = Duration::seconds(0);
  EXPECT_FALSE(s->update(JobId(1), zero));
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(600)));
  EXPECT_FALSE(s->update(JobId(1), shorter)) << "an ended job has nothing to update";
}

}  // namespace
}  // namespace fairway
