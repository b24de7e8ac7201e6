// Clemson Palmetto 2's worked examples (seed 004, "Scheduling Process"), run by the real
// core with the policy of the shipped profile examples/profiles/palmetto2.toml on the
// examples' own small machines.
#include <gtest/gtest.h>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

constexpr std::int64_t kMinute = 60;
constexpr std::int64_t kHour = 3600;

// The profile's policy on `n` nodes of `cores` cores; every partition spans them all.
Config palmetto_on(int n, int cores) {
  Config c = testing::profile("palmetto2");
  c.nodes.clear();
  for (int i = 0; i < n; ++i) {
    c.nodes.push_back(
        NodeTopology::uniform("node" + std::string(1, static_cast<char>('A' + i)), 1, cores, 0, ""));
  }
  for (auto& p : c.partitions) p.nodes.clear();
  return c;
}

JobSpec node_job(std::uint64_t id, std::int32_t nodes, std::int32_t cores_per_node, std::int64_t limit_s,
                 std::int64_t submit_s) {
  JobSpec j = testing::job(id, cores_per_node, limit_s, submit_s);
  j.resources.nodes = nodes;
  return j;
}

std::string node_of(const Scheduler& s, std::uint64_t id) {
  const JobRecord* j = s.job(JobId(id));
  return s.cluster().node(j->allocation.nodes.at(0).node).topology.name;
}

// "Our simple example cluster has four nodes total and three nodes are busy." The busy
// nodes free up one per hour, so a one-node job started now would delay job 1.
class PalmettoMainLoop : public ::testing::Test {
 protected:
  void SetUp() override {
    s_ = testing::make(palmetto_on(4, 1));
    for (std::uint64_t id = 101; id <= 103; ++id) {
      ASSERT_TRUE(s_->submit(node_job(id, 1, 1, static_cast<std::int64_t>(id - 100) * kHour, 0), T(0)));
    }
    ASSERT_EQ(s_->schedule(T(0)).started.size(), 3u);
  }
  // Jobs 1-3 in priority order: the older a job, the higher its age term.
  void submit_example(std::int64_t job2_limit) {
    ASSERT_TRUE(s_->submit(node_job(1, 2, 1, 4 * kHour, 0), T(0)));
    ASSERT_TRUE(s_->submit(node_job(2, 1, 1, job2_limit, kMinute), T(kMinute)));
    ASSERT_TRUE(s_->submit(node_job(3, 1, 1, 4 * kHour, 2 * kMinute), T(2 * kMinute)));
  }
  const JobRecord& job(std::uint64_t id) const { return *s_->job(JobId(id)); }
  std::unique_ptr<Scheduler> s_;
};

// "Job #1 will not be able to run because there are not enough free resources ... Jobs
// #2 and #3 cannot be scheduled because higher priority jobs are waiting for the same
// resources."
TEST_F(PalmettoMainLoop, LowerPriorityJobsWaitBehindJobOne) {
  submit_example(4 * kHour);
  const PassResult r = s_->schedule(T(3 * kMinute));
  EXPECT_TRUE(r.started.empty());
  ASSERT_GT(job(1).priority.total, job(2).priority.total);
  ASSERT_GT(job(2).priority.total, job(3).priority.total);
  EXPECT_TRUE(job(1).why.has(PendingReason::kResources));
  EXPECT_EQ(job(1).reserved_start, T(kHour)) << "two nodes free once job 101 ends";
  for (std::uint64_t id : {2, 3}) {
    EXPECT_EQ(job(id).state, JobState::kPending);
    EXPECT_TRUE(job(id).why.has(PendingReason::kPriority)) << id << ": " << job(id).why.codes();
  }
  // Job 1 gets its two nodes when job 101 ends; job 2 the next node to free up.
  ASSERT_TRUE(s_->finish(JobId(101), JobState::kCompleted, T(kHour)));
  const PassResult at1 = s_->schedule(T(kHour));
  ASSERT_EQ(at1.started.size(), 1u);
  EXPECT_EQ(at1.started[0].id, JobId(1));
  ASSERT_TRUE(s_->finish(JobId(102), JobState::kCompleted, T(2 * kHour)));
  const PassResult at2 = s_->schedule(T(2 * kHour));
  ASSERT_EQ(at2.started.size(), 1u);
  EXPECT_EQ(at2.started[0].id, JobId(2));
}

// "The backfill scheduling loop could schedule the lower priority jobs": a job 2 short
// enough to end before job 1's reserved start runs on the free node now.
TEST_F(PalmettoMainLoop, BackfillLoopGivesSkippedJobsAnotherChance) {
  submit_example(30 * kMinute);
  const PassResult r = s_->schedule(T(3 * kMinute));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(2));
  EXPECT_TRUE(job(3).why.has(PendingReason::kResources));
  EXPECT_EQ(job(1).reserved_start, T(kHour)) << "job 2 does not delay job 1";
}

// "The priority of a job requesting A100 GPUs will not affect the scheduling of a job
// requesting V100 GPUs": with the backfill loop off, the main loop alone decides.
TEST(PalmettoMainLoopOnly, WaitingA100JobDoesNotHoldBackV100Job) {
  Config c = testing::profile("palmetto2");
  c.nodes = {NodeTopology::uniform("a100-1", 2, 8, 1, "a100"),
             NodeTopology::uniform("v100-1", 2, 8, 1, "v100")};
  for (auto& p : c.partitions) p.nodes.clear();
  c.scheduler.backfill = BackfillMode::kNone;
  auto s = testing::make(c);
  JobSpec busy = testing::job(1, 1, 10 * kHour);
  busy.resources.gpus = 2;
  busy.resources.gpu_type = "a100";
  ASSERT_TRUE(s->submit(busy, T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  JobSpec a100 = testing::job(2, 1, kHour, 0);
  a100.resources.gpus = 1;
  a100.resources.gpu_type = "a100";
  JobSpec v100 = testing::job(3, 1, kHour, kMinute);
  v100.resources.gpus = 1;
  v100.resources.gpu_type = "v100";
  JobSpec another_a100 = a100;
  another_a100.id = JobId(4);
  another_a100.submit_time = T(2 * kMinute);
  ASSERT_TRUE(s->submit(a100, T(0)));
  ASSERT_TRUE(s->submit(v100, T(kMinute)));
  ASSERT_TRUE(s->submit(another_a100, T(2 * kMinute)));
  const PassResult r = s->schedule(T(3 * kMinute));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(3));
  EXPECT_TRUE(s->job(JobId(4))->why.has(PendingReason::kPriority));
}

// Interactive jobs land in interact, whose 12-hour maximum lowers longer requests, and
// which ranks them slightly above the same job in work1.
TEST(Palmetto, InteractiveJobsAreRoutedClampedAndBoosted) {
  auto s = testing::make(palmetto_on(2, 4));
  JobSpec i = testing::job(1, 1, 24 * kHour);
  i.interactive = true;
  ASSERT_TRUE(s->submit(i, T(0)));
  EXPECT_EQ(s->job(JobId(1))->spec.partition, "interact");
  EXPECT_EQ(s->job(JobId(1))->spec.time_limit, Duration::hours(12));
  JobSpec batch = testing::job(2, 1, 24 * kHour);
  ASSERT_TRUE(s->submit(batch, T(0)));
  EXPECT_EQ(s->job(JobId(2))->spec.partition, "work1");
  EXPECT_EQ(s->job(JobId(2))->spec.time_limit, Duration::hours(24)) << "work1 has no 12 h cap";
  s->schedule(T(0));
  EXPECT_DOUBLE_EQ(s->job(JobId(1))->priority.partition, 500);
  EXPECT_DOUBLE_EQ(s->job(JobId(2))->priority.partition, 0);
}

TEST(Palmetto, ThreeThousandJobsPerUser) {
  auto s = testing::make(palmetto_on(1, 1));
  for (std::uint64_t id = 1; id <= 3000; ++id) ASSERT_TRUE(s->submit(testing::job(id, 1, kHour), T(0)));
  auto st = s->submit(testing::job(3001, 1, kHour), T(0));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("max_submitted_jobs_per_user = 3000"), std::string::npos);
}

// "A maximum number of jobs the backfill scheduler will look at ... per partition, and
// per user": past the profile's 20 per user, a job is not considered and says so.
TEST(Palmetto, BackfillLoopLooksAtTwentyJobsPerUser) {
  auto s = testing::make(palmetto_on(2, 1));
  ASSERT_TRUE(s->submit(node_job(1, 2, 1, 10 * kHour, 0), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  for (std::uint64_t id = 10; id < 35; ++id) ASSERT_TRUE(s->submit(testing::job(id, 1, kHour, 1), T(1)));
  JobSpec other = testing::job(40, 1, kHour, 2, "bob");
  ASSERT_TRUE(s->submit(other, T(2)));
  s->schedule(T(3));
  int capped = 0;
  for (std::uint64_t id = 10; id < 35; ++id) {
    const JobRecord& j = *s->job(JobId(id));
    if (j.why.has(PendingReason::kBackfillUserLimit)) {
      ++capped;
      EXPECT_FALSE(j.reserved_start.has_value());
      EXPECT_EQ(j.why.codes(), "BackfillUserLimit");
    } else {
      EXPECT_TRUE(j.reserved_start.has_value()) << "conservative: every job looked at is planned";
    }
  }
  EXPECT_EQ(capped, 5);
  EXPECT_TRUE(s->job(JobId(40))->reserved_start.has_value()) << "bob's job is looked at";
}

// "Our example cluster has 2 nodes, which each have 2 CPU cores." Jobs 1-4 ran as
// submitted (job 4 once job 1 ended at 10:00); jobs 5-7 wait with planned resources; job 8
// "was still able to backfill ... into a time-slot on Node A since the job could ... end
// before Job 5 is planned to start". Totals alone would plan job 5 at 10:45, when two
// cores are free but on different nodes, and job 8 would then have to wait.
TEST(Palmetto, BackfillExampleJobEightOnNodeA) {
  auto s = testing::make(palmetto_on(2, 2));
  auto at = [](int h, int m) { return T(h * kHour + m * kMinute); };
  auto submit = [&](std::uint64_t id, std::int32_t cores, std::int64_t limit, Time when) {
    ASSERT_TRUE(s->submit(node_job(id, 1, cores, limit, when.seconds()), when));
    s->schedule(when);
  };
  submit(1, 2, kHour, at(9, 0));
  submit(2, 1, 2 * kHour, at(9, 30));
  submit(3, 1, kHour, at(9, 45));
  submit(4, 1, kHour, at(9, 55));
  EXPECT_EQ(s->job(JobId(4))->state, JobState::kPending) << "both nodes busy at 9:55";
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, at(10, 0)));
  s->schedule(at(10, 0));
  ASSERT_EQ(s->job(JobId(4))->state, JobState::kRunning);
  const std::string node_a = node_of(*s, 4);
  EXPECT_NE(node_of(*s, 2), node_a);
  EXPECT_EQ(node_of(*s, 3), node_of(*s, 2));
  submit(5, 2, 90 * kMinute, at(10, 10));
  submit(6, 1, 75 * kMinute, at(10, 12));
  submit(7, 2, kHour, at(10, 13));
  ASSERT_TRUE(s->submit(node_job(8, 1, 1, 30 * kMinute, at(10, 20).seconds()), at(10, 20)));
  const PassResult r = s->schedule(at(10, 20));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(8));
  EXPECT_EQ(node_of(*s, 8), node_a);
  EXPECT_EQ(s->job(JobId(5))->reserved_start, at(11, 0)) << "node A is whole again at 11:00";
  for (std::uint64_t id : {5, 6, 7}) {
    EXPECT_TRUE(s->job(JobId(id))->reserved_start.has_value()) << id << ": resources planned";
  }
}

// "Any jobs submitted to these owner partitions can preempt any non-owner job ... If an
// interactive or Open On Demand job gets preempted, it will be canceled ... If a batch job
// gets preempted, it will be requeued." and "Slurm will always attempt to start an owner
// job without preempting. However, if preemption is unavoidable, Slurm will attempt to
// preempt the fewest number of jobs possible, prioritizing lower priority jobs."
TEST(PalmettoOwnerPartitions, AnOwnerJobPreemptsTheLowerPriorityBatchJobWhichIsRequeued) {
  auto s = testing::make(palmetto_on(2, 4));
  JobSpec interactive = testing::job(1, 4, kHour);
  interactive.interactive = true;  // interact: +500 priority
  ASSERT_TRUE(s->submit(interactive, T(0)));
  ASSERT_TRUE(s->submit(testing::job(2, 4, kHour), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  JobSpec owner = testing::job(3, 4, kHour, kMinute, "faculty");
  owner.partition = "skylight";
  owner.account = "skylight";  // partitions.allow_accounts: the owners' account
  ASSERT_TRUE(s->submit(owner, T(kMinute)));
  const PassResult r = s->schedule(T(kMinute));
  ASSERT_EQ(r.preempting.size(), 1u);
  EXPECT_EQ(r.preempting[0].victim, JobId(2));
  EXPECT_TRUE(r.preempting[0].requeue);
  EXPECT_EQ(r.preempting[0].grace, Duration::seconds(0));
  ASSERT_TRUE(s->stop_preempted(JobId(2), T(kMinute)));
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kPending);
  const PassResult next = s->schedule(T(kMinute));
  ASSERT_EQ(next.started.size(), 1u);
  EXPECT_EQ(next.started[0].id, JobId(3));
}

TEST(PalmettoOwnerPartitions, APreemptedInteractiveJobIsCancelledAndOwnersStartWithoutPreemptingWhenTheyCan) {
  auto s = testing::make(palmetto_on(3, 4));
  JobSpec interactive = testing::job(1, 4, kHour);
  interactive.interactive = true;
  ASSERT_TRUE(s->submit(interactive, T(0)));
  JobSpec keep = testing::job(2, 4, kHour);
  keep.requeue = false;
  keep.partition = "interact";
  ASSERT_TRUE(s->submit(keep, T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  JobSpec owner = testing::job(3, 4, kHour, kMinute, "faculty");
  owner.partition = "skylight";
  owner.account = "skylight";  // partitions.allow_accounts: the owners' account
  ASSERT_TRUE(s->submit(owner, T(kMinute)));
  const PassResult free_node = s->schedule(T(kMinute));
  EXPECT_EQ(free_node.started.size(), 1u);  // the third node was free: nobody preempted
  EXPECT_TRUE(free_node.preempting.empty());
  JobSpec second = owner;
  second.id = JobId(4);
  ASSERT_TRUE(s->submit(second, T(2 * kMinute)));
  const PassResult r = s->schedule(T(2 * kMinute));
  ASSERT_EQ(r.preempting.size(), 1u);
  EXPECT_FALSE(r.preempting[0].requeue);  // interactive or --no-requeue: cancelled
  auto after = s->stop_preempted(r.preempting[0].victim, T(2 * kMinute));
  ASSERT_TRUE(after);
  EXPECT_EQ(*after, JobState::kPreempted);
}

}  // namespace
}  // namespace fairway
