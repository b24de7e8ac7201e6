// estimate_start (sbatch --test-only): when a job would start, planned on a copy,
// with the scheduler itself left exactly as it was.
#include <gtest/gtest.h>

#include "coordinator/core/start_estimate.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::job;
using testing::T;

TEST(StartEstimate, AnIdleMachineStartsItNowOnTheCoresItWouldGet) {
  auto s = testing::make(testing::uniform_cluster(2, 1, 4, BackfillMode::kEasy));
  auto e = estimate_start(*s, job(0, 2, 600), T(100));
  ASSERT_TRUE(e) << e.error().message;
  ASSERT_TRUE(e->start);
  EXPECT_EQ(*e->start, T(100));
  EXPECT_EQ(e->allocation.total_cores(), 2);
  EXPECT_EQ(e->partition, "batch");
  EXPECT_TRUE(s->waiting().empty());
  EXPECT_TRUE(s->running().empty());
  EXPECT_EQ(s->cluster().partition(PartitionIndex(0)).free.cores, 8);
}

TEST(StartEstimate, BehindTheQueueItGetsAStartEvenWhereEasyWouldNotReserveForIt) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(job(1, 4, 3600), T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->submit(job(2, 4, 3600), T(10)));  // first in line: EASY reserves 3600
  s->schedule(T(10));
  auto e = estimate_start(*s, job(0, 2, 600), T(20));
  ASSERT_TRUE(e) << e.error().message;
  ASSERT_TRUE(e->start);
  EXPECT_EQ(*e->start, T(7200)) << "after job 1 (ends 3600) and job 2 (3600-7200)";
  EXPECT_TRUE(e->allocation.empty());
  EXPECT_TRUE(e->why.has(PendingReason::kResources) || e->why.has(PendingReason::kPriority));
  // Nothing changed: job 2 still waits with its own reservation, no third job exists.
  EXPECT_EQ(s->waiting().size(), 1u);
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kPending);
  EXPECT_EQ(s->job(JobId(3)), nullptr);
  EXPECT_EQ(s->running().size(), 1u);
  s->schedule(T(30));
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kPending);
}

TEST(StartEstimate, WhatSubmitWouldRefuseItRefusesTheSame) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy));
  auto e = estimate_start(*s, job(0, 64, 600), T(0));
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("can ever hold"), std::string::npos) << e.error().message;
  EXPECT_TRUE(e.error().message.starts_with("requests 64 cores")) << e.error().message;
}

// Alice's last two runs took 100 s and her 1-hour job runs from t=1000; Bob's waits for the
// node. By prediction he is planned at 1100; by limits, as without predictions, at 4600.
TEST(StartEstimate, ByLimitPlansEveryJobByItsTimeLimit) {
  Config c = testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy);
  c.scheduler.runtime_prediction = RuntimePrediction::kUserLast2;
  auto s = testing::make(c);
  s->restore_runtime("alice", Duration::seconds(100), T(100));
  s->restore_runtime("alice", Duration::seconds(100), T(200));
  ASSERT_TRUE(s->submit(job(3, 4, 3600, 1000, "alice"), T(1000)));
  s->schedule(T(1000));
  ASSERT_TRUE(s->submit(job(4, 4, 3600, 1001, "bob"), T(1001)));
  s->schedule(T(1001));
  EXPECT_EQ(s->job(JobId(4))->reserved_start, T(1100));
  EXPECT_EQ(estimate_start_by_limit(*s, JobId(4), T(1001)), T(4600));
  // The scheduler itself still plans by prediction.
  EXPECT_TRUE(s->job(JobId(3))->predicted_runtime.has_value());
  EXPECT_EQ(s->config().scheduler.runtime_prediction, RuntimePrediction::kUserLast2);
  // A running or unknown job has no such start.
  EXPECT_EQ(estimate_start_by_limit(*s, JobId(3), T(1001)), std::nullopt);
  EXPECT_EQ(estimate_start_by_limit(*s, JobId(9), T(1001)), std::nullopt);
}

TEST(StartEstimate, TheWhatIfCopyHasItsOwnRecordsAndSettings) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy));
  EXPECT_EQ(s->unused_id(), JobId(1));
  ASSERT_TRUE(s->submit(job(5, 4, 600), T(0)));
  ASSERT_TRUE(s->submit(job(2, 4, 600), T(0)));
  EXPECT_EQ(s->unused_id(), JobId(6));
  SchedulerConfig conservative = s->config().scheduler;
  conservative.backfill = BackfillMode::kConservative;
  auto copy = s->what_if(conservative);
  EXPECT_EQ(copy->config().scheduler.backfill, BackfillMode::kConservative);
  EXPECT_EQ(s->config().scheduler.backfill, BackfillMode::kEasy);
  copy->schedule(T(0));
  EXPECT_EQ(copy->running().size(), 1u);
  EXPECT_EQ(s->running().size(), 0u);
  EXPECT_EQ(s->waiting().size(), 2u);
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kPending);
}

}  // namespace
}  // namespace fairway
