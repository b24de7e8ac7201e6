#include "coordinator/core/backfill_engine.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_cluster.h"

namespace fairway {
namespace {

using testing::job;
using testing::make;
using testing::T;
using testing::uniform_cluster;

bool started(const PassResult& r, std::uint64_t id) {
  return std::any_of(r.started.begin(), r.started.end(),
                     [&](const JobStart& s) { return s.id == JobId(id); });
}

// 10 single-core nodes. Job 1 runs 7 cores until t=100. Job 2 (top priority) wants the
// whole machine and must wait for t=100. Job 3 (2 cores, 50 s) ends before then; job 4
// (1 core, 500 s) fits now but would delay job 2.
struct Scenario {
  std::unique_ptr<Scheduler> s;
  PassResult second;
  explicit Scenario(BackfillMode mode) {
    s = make(uniform_cluster(10, 1, 1, mode));
    EXPECT_TRUE(s->submit(job(1, 7, 100), T(0)));
    EXPECT_TRUE(started(s->schedule(T(0)), 1));
    EXPECT_TRUE(s->submit(job(2, 10, 100, 1), T(1)));
    EXPECT_TRUE(s->submit(job(3, 2, 50, 2), T(2)));
    EXPECT_TRUE(s->submit(job(4, 1, 500, 3), T(3)));
    second = s->schedule(T(10));
  }
};

TEST(BackfillEngine, EasyBackfillsOnlyWhatCannotDelayTheReservedJob) {
  Scenario sc(BackfillMode::kEasy);
  EXPECT_FALSE(started(sc.second, 2));
  EXPECT_TRUE(started(sc.second, 3));
  EXPECT_FALSE(started(sc.second, 4));
  const JobRecord* j2 = sc.s->job(JobId(2));
  ASSERT_TRUE(j2->reserved_start);
  EXPECT_EQ(*j2->reserved_start, T(100));
  EXPECT_EQ(j2->why.estimated_start, T(100));
  EXPECT_TRUE(j2->why.has(PendingReason::kResources));
  const JobRecord* j4 = sc.s->job(JobId(4));
  EXPECT_TRUE(j4->why.has(PendingReason::kReservationConflict));
  EXPECT_TRUE(j4->why.has(PendingReason::kPriority));
  EXPECT_FALSE(j4->reserved_start) << "EASY reserves only for the top job";
}

TEST(BackfillEngine, ConservativeReservesForEveryWaitingJob) {
  Scenario sc(BackfillMode::kConservative);
  EXPECT_TRUE(started(sc.second, 3));
  EXPECT_FALSE(started(sc.second, 4));
  const JobRecord* j4 = sc.s->job(JobId(4));
  ASSERT_TRUE(j4->reserved_start);
  // Job 2 holds the whole machine over [100, 200); job 4 comes after it.
  EXPECT_EQ(*j4->reserved_start, T(200));
}

TEST(BackfillEngine, NoneKeepsStrictPriorityOrder) {
  Scenario sc(BackfillMode::kNone);
  EXPECT_TRUE(sc.second.started.empty());
  const JobRecord* j3 = sc.s->job(JobId(3));
  EXPECT_TRUE(j3->why.has(PendingReason::kStrictOrder));
  EXPECT_FALSE(j3->why.has(PendingReason::kResources));
}

TEST(BackfillEngine, ReservedJobStartsWhenResourcesFree) {
  Scenario sc(BackfillMode::kEasy);
  ASSERT_TRUE(sc.s->finish(JobId(3), JobState::kCompleted, T(60)));
  EXPECT_TRUE(sc.s->schedule(T(60)).started.empty());
  ASSERT_TRUE(sc.s->finish(JobId(1), JobState::kCompleted, T(100)));
  PassResult r = sc.s->schedule(T(100));
  ASSERT_TRUE(started(r, 2));
  auto it =
      std::find_if(r.started.begin(), r.started.end(), [](const JobStart& s) { return s.id == JobId(2); });
  ASSERT_TRUE(it->reserved_start);
  EXPECT_EQ(*it->reserved_start, T(100));
}

TEST(BackfillEngine, OverrunJobsAreExpectedToEndJustAfterNow) {
  auto s = make(uniform_cluster(4, 1, 1, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(job(1, 4, 100), T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->submit(job(2, 2, 10, 500), T(500)));
  s->schedule(T(500));  // job 1 ran past its limit and still holds everything
  const JobRecord* j2 = s->job(JobId(2));
  ASSERT_TRUE(j2->reserved_start);
  EXPECT_EQ(*j2->reserved_start, T(501));
}

TEST(BackfillEngine, DepthOverrideGivesReservationsToTheTopJobsOnly) {
  Config c = uniform_cluster(4, 1, 1, BackfillMode::kConservative);
  c.scheduler.reservation_depth = 2;
  auto s = make(c);
  ASSERT_TRUE(s->submit(job(1, 4, 100), T(0)));
  s->schedule(T(0));
  for (std::uint64_t id = 2; id <= 4; ++id)
    ASSERT_TRUE(s->submit(job(id, 3, 100, static_cast<std::int64_t>(id)), T(5)));
  s->schedule(T(10));
  EXPECT_TRUE(s->job(JobId(2))->reserved_start);
  EXPECT_TRUE(s->job(JobId(3))->reserved_start);
  EXPECT_FALSE(s->job(JobId(4))->reserved_start);
  EXPECT_EQ(*s->job(JobId(3))->reserved_start, T(200));
}

// The starvation guard: a job eligible for reserve_after_wait holds a reservation even
// though it is not the top job (here an expansion-factor priority keeps a long job below
// every short one), and only the first such job per partition does.
TEST(BackfillEngine, AJobWaitingPastTheGuardHoldsAReservationBeyondTheDepth) {
  const auto run = [](std::optional<Duration> guard, std::int32_t guarded_jobs) {
    Config c = uniform_cluster(4, 1, 1, BackfillMode::kEasy);
    c.priority.age_per_minute = 0;
    c.priority.expansion_factor = 1000;
    c.scheduler.reserve_after_wait = guard;
    c.scheduler.reserve_after_wait_jobs = guarded_jobs;
    auto s = make(c);
    EXPECT_TRUE(s->submit(job(1, 4, 1000), T(0)));
    s->schedule(T(0));
    EXPECT_TRUE(s->submit(job(2, 4, 10000, 1), T(1)));   // long: a low expansion factor
    EXPECT_TRUE(s->submit(job(5, 4, 10000, 2), T(2)));   // as long, waiting as long
    EXPECT_TRUE(s->submit(job(3, 4, 10, 500), T(500)));  // short: the top job
    s->schedule(T(600));
    return s;
  };
  auto plain = run(std::nullopt, 1);
  EXPECT_TRUE(plain->job(JobId(3))->reserved_start);
  EXPECT_FALSE(plain->job(JobId(2))->reserved_start) << "EASY: the top job only";
  auto guarded = run(Duration::seconds(300), 1);
  ASSERT_TRUE(guarded->job(JobId(3))->reserved_start);
  EXPECT_EQ(*guarded->job(JobId(3))->reserved_start, T(1000));
  ASSERT_TRUE(guarded->job(JobId(2))->reserved_start);
  EXPECT_EQ(*guarded->job(JobId(2))->reserved_start, T(1010));  // after the top job's
  EXPECT_FALSE(guarded->job(JobId(5))->reserved_start) << "one starving job per partition at a time";
  // Not yet waited long enough: nothing beyond EASY's one.
  auto early = run(Duration::seconds(3600), 1);
  EXPECT_FALSE(early->job(JobId(2))->reserved_start);
  // reserve_after_wait_jobs = 2: both starving jobs hold one, in priority order.
  auto two = run(Duration::seconds(300), 2);
  ASSERT_TRUE(two->job(JobId(2))->reserved_start);
  ASSERT_TRUE(two->job(JobId(5))->reserved_start);
  EXPECT_EQ(*two->job(JobId(2))->reserved_start, T(1010));
  EXPECT_EQ(*two->job(JobId(5))->reserved_start, T(11010));
}

TEST(BackfillEngine, HeldJobsAreSkippedAndSayHeld) {
  auto s = make(uniform_cluster(2, 1, 1, BackfillMode::kEasy));
  JobSpec j = job(1, 1, 10);
  j.hold = true;
  ASSERT_TRUE(s->submit(j, T(0)));
  EXPECT_TRUE(s->schedule(T(0)).started.empty());
  EXPECT_TRUE(s->job(JobId(1))->why.has(PendingReason::kHeld));
  ASSERT_TRUE(s->release(JobId(1), T(5)));
  EXPECT_TRUE(started(s->schedule(T(5)), 1));
}

}  // namespace
}  // namespace fairway
