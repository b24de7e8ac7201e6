// HPC2N Akka's worked examples (seed 002), run by the real core with the shipped profile
// examples/profiles/hpc2n-akka.toml.
#include <gtest/gtest.h>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

std::unique_ptr<Scheduler> akka() {
  return testing::make(testing::profile("hpc2n-akka"));
}

JobSpec job(std::uint64_t id, const char* user, std::int32_t procs, std::int64_t walltime_s) {
  return testing::job(id, procs, walltime_s, 0, user);
}

// Filling the machine takes a project: without one, MAXPS hard (1,080,000 PS) forbids it.
JobSpec project_job(std::uint64_t id, std::int32_t procs, std::int64_t walltime_s) {
  JobSpec j = testing::job(id, procs, walltime_s, 0, "other");
  j.account = "snac-example";
  return j;
}

// "If you submit 10 jobs to the queue, the first 8 will go to 'idle' and the next 2 to
// 'blocked'. When one of the 'idle' jobs starts running, the newest of the 'blocked' jobs will be
// upgraded to 'idle' status."
TEST(Hpc2nAkka, TenJobsGiveEightIdleAndTwoBlocked) {
  auto s = akka();
  ASSERT_TRUE(s->submit(project_job(1, 5080, 1000), T(0)));  // the machine is full
  s->schedule(T(0));
  for (std::uint64_t id = 10; id < 20; ++id) {
    ASSERT_TRUE(s->submit(job(id, "user1", 8, 3600), T(static_cast<std::int64_t>(id))));
  }
  s->schedule(T(20));
  for (std::uint64_t id = 10; id < 18; ++id) EXPECT_EQ(s->job(JobId(id))->state, JobState::kPending) << id;
  for (std::uint64_t id = 18; id < 20; ++id) {
    const JobRecord* j = s->job(JobId(id));
    EXPECT_EQ(j->state, JobState::kBlocked) << id;
    EXPECT_TRUE(j->why.has(PendingReason::kUserEligibleLimit)) << id;
    EXPECT_EQ(j->why.codes(), "UserEligibleLimit");
  }
  // The machine frees; two idle jobs start (MAXPS stops the third: 3 x 28800 > 72000),
  // and the two blocked jobs move up to idle.
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(1000)));
  EXPECT_EQ(s->schedule(T(1000)).started.size(), 2u);
  EXPECT_TRUE(s->job(JobId(12))->why.has(PendingReason::kMaxPsSoft));
  // Another user's job that is eligible (within its soft limit) keeps MAXPS strict, as it
  // would be on a busy cluster: between soft and hard is only for an otherwise empty queue.
  ASSERT_TRUE(s->submit(project_job(2, 5080, 3600), T(1000)));
  s->schedule(T(1001));
  for (std::uint64_t id = 12; id < 20; ++id) {
    const JobRecord* j = s->job(JobId(id));
    EXPECT_EQ(j->state, JobState::kPending) << id;
    EXPECT_TRUE(j->why.has(PendingReason::kMaxPsSoft)) << id;
  }
}

// The MAXPS example: user1 runs 2 procs with 9:42:28 (34948 s) left: 69896 PS. A new job of
// 8 procs x 1:00:00 adds 28800: 98696 > 72000, "so no new job(s) are allowed to start
// until the running job finish".
TEST(Hpc2nAkka, MaxPsExampleBlocksUntilTheRunningJobEnds) {
  auto s = akka();
  ASSERT_TRUE(s->submit(job(1, "user1", 2, 36000), T(0)));
  ASSERT_TRUE(s->submit(project_job(2, 5078, 50000), T(0)));  // the rest of the machine
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  const std::int64_t now = 36000 - 34948;
  ASSERT_TRUE(s->submit(job(3, "user1", 8, 3600), T(now)));
  ASSERT_TRUE(s->submit(job(4, "user2", 8, 3600), T(now)));  // eligible, waits for cores
  s->schedule(T(now));
  EXPECT_TRUE(s->job(JobId(3))->why.has(PendingReason::kMaxPsSoft));
  EXPECT_FALSE(s->job(JobId(4))->why.has(PendingReason::kMaxPsSoft));
  EXPECT_TRUE(s->job(JobId(4))->why.has(PendingReason::kResources));
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(36000)));
  s->schedule(T(36000));
  EXPECT_FALSE(s->job(JobId(3))->why.has(PendingReason::kMaxPsSoft)) << "the running job ended";
}

// "If there are NO other jobs eligible for scheduling then and only then are jobs with
// resource requests between SOFT and HARD limit considered"; "a job may never exceed a
// HARD limit".
TEST(Hpc2nAkka, BetweenSoftAndHardOnlyWhenNothingElseIsEligibleNeverAboveHard) {
  auto s = akka();
  ASSERT_TRUE(s->submit(job(1, "user1", 2, 36000), T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->submit(job(3, "user1", 8, 3600), T(1052)));
  PassResult r = s->schedule(T(1052));
  ASSERT_EQ(r.started.size(), 1u) << "alone in the queue, between soft and hard: it may start";
  // 100 procs x 3 h = 1,080,000 alone; with what user1 runs it passes the hard limit.
  ASSERT_TRUE(s->submit(job(4, "user1", 100, 3 * 3600), T(1100)));
  s->schedule(T(1100));
  EXPECT_TRUE(s->job(JobId(4))->why.has(PendingReason::kMaxPsHard));
  // A job over the hard limit on its own could never start: refused at submission.
  auto st = s->submit(job(5, "user1", 400, 3 * 3600), T(1100));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("4320000 processor-seconds exceeds the MAXPS hard limit 1080000"),
            std::string::npos)
      << st.error().message;
}

TEST(Hpc2nAkka, WalltimeOverFiveDaysIsRefused) {
  auto s = akka();
  auto st = s->submit(job(1, "user1", 1, 432001), T(0));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("exceeds partition 'batch' max_time 5-00:00:00"), std::string::npos)
      << st.error().message;
}

// "Queued time. This is the time since the job entered the idle part of the queue": the
// blocked jobs of the ten-job example do not age; once one moves up to idle it starts at 0.
// "Expansion factor. This is (queuetime + wallclocklimit)/wallclocklimit."
TEST(Hpc2nAkka, OnlyIdleJobsAgeAndGainExpansion) {
  auto s = akka();
  ASSERT_TRUE(s->submit(project_job(1, 5080, 100000), T(0)));  // the machine is full
  s->schedule(T(0));
  for (std::uint64_t id = 10; id < 20; ++id) ASSERT_TRUE(s->submit(job(id, "user1", 8, 3600), T(0)));
  s->schedule(T(60));
  s->schedule(T(3660));
  const JobRecord* idle = s->job(JobId(10));
  const JobRecord* blocked = s->job(JobId(19));
  ASSERT_EQ(blocked->state, JobState::kBlocked);
  EXPECT_DOUBLE_EQ(idle->priority.age, 60);
  EXPECT_DOUBLE_EQ(idle->priority.expansion, 1000.0 * 2);  // waited its own 1-hour limit
  EXPECT_DOUBLE_EQ(blocked->priority.age, 0);
  EXPECT_DOUBLE_EQ(blocked->priority.expansion, 1000.0);
  ASSERT_TRUE(s->cancel(JobId(10), T(3700)));
  s->schedule(T(3700));  // a blocked job moves up to idle here
  s->schedule(T(4300));
  int idle_for_ten_minutes = 0;
  for (std::uint64_t id = 18; id < 20; ++id) {
    const JobRecord* j = s->job(JobId(id));
    if (j->state == JobState::kPending) idle_for_ten_minutes += j->priority.age == 10;
  }
  EXPECT_EQ(idle_for_ten_minutes, 1);
}

}  // namespace
}  // namespace fairway
