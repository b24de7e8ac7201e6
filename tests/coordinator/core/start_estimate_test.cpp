// Scheduler::estimate_start (sbatch --test-only): when a job would start, planned on a copy,
// with the scheduler itself left exactly as it was.
#include <gtest/gtest.h>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::job;
using testing::T;

TEST(StartEstimate, AnIdleMachineStartsItNowOnTheCoresItWouldGet) {
  auto s = testing::make(testing::uniform_cluster(2, 1, 4, BackfillMode::kEasy));
  auto e = s->estimate_start(job(0, 2, 600), T(100));
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
  auto e = s->estimate_start(job(0, 2, 600), T(20));
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
  auto e = s->estimate_start(job(0, 64, 600), T(0));
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("can ever hold"), std::string::npos) << e.error().message;
  EXPECT_TRUE(e.error().message.starts_with("requests 64 cores")) << e.error().message;
}

}  // namespace
}  // namespace fairway
