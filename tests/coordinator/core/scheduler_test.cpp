#include "coordinator/core/scheduler.h"

#include <gtest/gtest.h>

#include "test_cluster.h"

namespace fairway {
namespace {

using testing::job;
using testing::make;
using testing::T;
using testing::uniform_cluster;

Config two_partitions() {
  Config c = uniform_cluster(4, 2, 4, BackfillMode::kEasy, 1, "v100");
  PartitionConfig batch;
  batch.name = "batch";
  batch.is_default = true;
  batch.max_time = Duration::days(7);
  PartitionConfig debug;
  debug.name = "debug";
  debug.nodes = {"n0"};
  debug.max_time = Duration::hours(1);
  debug.priority = 1000;
  c.partitions = {batch, debug};
  c.qos = {QosConfig{"devel", 20000, Duration::hours(2), std::nullopt, std::nullopt, {}}};
  return c;
}

// p_both, q_normal, c_too_many on twonode.sh: Slurm ran -p owner,batch and -q normal
// (no such QOS configured), and refused -c29 on 28-core nodes.
TEST(Scheduler, PartitionListsTheNormalQosAndCpusPerTaskAsSlurm) {
  auto s = make(two_partitions());
  JobSpec j = job(1, 1, 7200);
  j.partition = "debug,batch";  // too long for debug: batch takes it
  ASSERT_TRUE(s->submit(j, T(0)));
  EXPECT_EQ(s->job(JobId(1))->spec.partition, "batch");
  j = job(2, 1, 60);
  j.partition = "debug,batch";
  ASSERT_TRUE(s->submit(j, T(0)));
  EXPECT_EQ(s->job(JobId(2))->spec.partition, "debug");
  j = job(3, 1, 60);
  j.partition = "gpu,cpu";
  auto st = s->submit(j, T(0));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("partition 'gpu' does not exist"), std::string::npos)
      << st.error().message;

  j = job(4, 1, 60);
  j.qos = "normal";
  ASSERT_TRUE(s->submit(j, T(0)));
  EXPECT_EQ(s->job(JobId(4))->spec.qos, "");  // the default: the partition's (none here)

  j = job(5, 9, 60);
  j.tasks.cpus_per_task = 9;  // the nodes have 2 x 4 cores
  st = s->submit(j, T(0));
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message,
            "job 5: --cpus-per-task=9 is more CPUs than any node of partition 'batch' has (8)");
}

TEST(Scheduler, SubmitRejectsBadRequestsNamingFieldAndValue) {
  auto s = make(two_partitions());
  JobSpec j = job(1, 0, 60);
  auto st = s->submit(j, T(0));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("cores must be >= 1, got 0"), std::string::npos);

  j = job(2, 1, 60);
  j.partition = "gpu";
  st = s->submit(j, T(0));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("partition 'gpu' does not exist"), std::string::npos);

  j = job(3, 1, 7200);
  j.partition = "debug";
  st = s->submit(j, T(0));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("exceeds partition 'debug' max_time 01:00:00"), std::string::npos);

  j = job(4, 1, 60);
  j.qos = "premium";
  st = s->submit(j, T(0));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("qos 'premium' does not exist"), std::string::npos);

  j = job(5, 33, 60);
  st = s->submit(j, T(0));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("requests 33 cores"), std::string::npos);

  j = job(6, 1, 60);
  j.resources.gpus = 1;
  j.resources.gpu_type = "a100";
  st = s->submit(j, T(0));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("of type 'a100'"), std::string::npos);

  ASSERT_TRUE(s->submit(job(7, 1, 60), T(0)));
  st = s->submit(job(7, 1, 60), T(0));
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, ErrorCode::kAlreadyExists);
  EXPECT_EQ(s->waiting().size(), 1u) << "rejected submissions leave no trace";
}

TEST(Scheduler, PriorityBreakdownSumsWeightedFactors) {
  Config c = two_partitions();
  c.priority.age_per_minute = 2;
  auto s = make(c);
  JobSpec a = job(1, 1, 60);
  a.qos = "devel";
  ASSERT_TRUE(s->submit(a, T(0)));
  JobSpec b = job(2, 1, 60);
  b.partition = "debug";
  ASSERT_TRUE(s->submit(b, T(0)));
  // Fill the machine first so both wait and keep their breakdown.
  JobSpec big = job(3, 32, 600);
  big.hold = true;
  ASSERT_TRUE(s->submit(big, T(0)));
  s->schedule(T(600));
  // Both started (the machine is empty); their breakdown is what ranked them.
  const JobRecord* ra = s->job(JobId(1));
  EXPECT_DOUBLE_EQ(ra->priority.age, 20.0);  // 10 minutes x 2
  EXPECT_DOUBLE_EQ(ra->priority.qos, 20000.0);
  EXPECT_DOUBLE_EQ(ra->priority.total, 20020.0);
  const JobRecord* rb = s->job(JobId(2));
  EXPECT_DOUBLE_EQ(rb->priority.partition, 1000.0);
}

// gpus_toomany on twonode.sh: --gpus=3 with one task on nodes of two GPUs. Slurm gave it a
// second CPU and ran it on both nodes; it must never wait forever for a core it lacks.
TEST(Scheduler, SpreadGpusGetACoreOnEveryNodeTheyComeFrom) {
  auto s = make(uniform_cluster(2, 2, 4, BackfillMode::kEasy, 1, "v100"));
  JobSpec j = job(1, 1, 60);
  j.resources.gpus = 3;
  ASSERT_TRUE(s->submit(j, T(0)));
  EXPECT_EQ(s->job(JobId(1))->spec.resources.cores, 2);
  s->schedule(T(0));
  const JobRecord* r = s->job(JobId(1));
  ASSERT_EQ(r->state, JobState::kRunning);
  EXPECT_EQ(r->allocation.nodes.size(), 2u);
  EXPECT_EQ(r->allocation.total_gpus(), 3);
}

TEST(Scheduler, AgeCapStopsAgeing) {
  Config c = uniform_cluster(1, 1, 1, BackfillMode::kEasy);
  c.priority.age_cap = Duration::minutes(5);
  auto s = make(c);
  ASSERT_TRUE(s->submit(job(1, 1, 1000), T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->submit(job(2, 1, 10), T(0)));
  s->schedule(T(3600));
  EXPECT_DOUBLE_EQ(s->job(JobId(2))->priority.age, 5.0);
}

TEST(Scheduler, FairShareRanksTheLighterUserFirst) {
  Config c = uniform_cluster(1, 1, 2, BackfillMode::kEasy);
  c.priority.age_per_minute = 0;
  c.priority.fairshare = 1000;
  auto s = make(c);
  ASSERT_TRUE(s->submit(job(1, 2, 3600, 0, "heavy"), T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(3600)));
  ASSERT_TRUE(s->submit(job(2, 2, 60, 3600, "heavy"), T(3600)));
  ASSERT_TRUE(s->submit(job(3, 2, 60, 3601, "light"), T(3601)));
  PassResult r = s->schedule(T(3601));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(3));
  EXPECT_GT(s->job(JobId(3))->priority.fairshare, s->job(JobId(2))->priority.fairshare);
}

TEST(Scheduler, CancelFreesAndRejectsIllegalMoves) {
  auto s = make(uniform_cluster(1, 1, 2, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(job(1, 2, 100), T(0)));
  s->schedule(T(0));
  ASSERT_TRUE(s->cancel(JobId(1), T(5)));
  EXPECT_EQ(s->job(JobId(1))->state, JobState::kCancelled);
  EXPECT_EQ(s->cluster().partition(PartitionIndex(0)).free.cores, 2);
  EXPECT_FALSE(s->cancel(JobId(1), T(6)));
  EXPECT_FALSE(s->hold(JobId(1)));
  EXPECT_FALSE(s->finish(JobId(99), JobState::kCompleted, T(6)));
}

TEST(Scheduler, OnlyPendingJobsCanBeHeldAndTheRefusalSaysSo) {
  auto s = make(uniform_cluster(1, 1, 2, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(job(1, 2, 100), T(0)));
  ASSERT_TRUE(s->submit(job(2, 2, 100), T(0)));
  s->schedule(T(0));
  ASSERT_EQ(s->job(JobId(1))->state, JobState::kRunning);
  auto running = s->hold(JobId(1));
  ASSERT_FALSE(running);
  EXPECT_EQ(running.error().message, "job 1 is running: only pending jobs can be held");
  ASSERT_TRUE(s->hold(JobId(2)));
  EXPECT_TRUE(s->hold(JobId(2))) << "holding a held job again changes nothing";
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kHeld);
}

TEST(Scheduler, AnUnknownGpuTypeIsRefusedNamingTheTypesThePartitionHas) {
  auto s = make(uniform_cluster(1, 2, 14, BackfillMode::kEasy, 1, "a100"));
  JobSpec j = job(1, 1, 100);
  j.resources.gpus = 1;
  j.resources.gpu_type = "h100";
  auto refused = s->submit(j, T(0));
  ASSERT_FALSE(refused);
  EXPECT_NE(
      refused.error().message.find("no node in partition 'batch' has GPUs of type 'h100' (types: a100)"),
      std::string::npos)
      << refused.error().message;
  auto cpu_only = make(uniform_cluster(1, 2, 14, BackfillMode::kEasy));
  auto none = cpu_only->submit(j, T(0));
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("has GPUs of type 'h100' (it has no GPUs)"), std::string::npos)
      << none.error().message;
  j.resources.gpu_type = "a100";
  EXPECT_TRUE(s->submit(j, T(0)));
}

TEST(Scheduler, AStartAheadOfAPendingHigherPriorityJobIsMarkedBackfilled) {
  auto s = make(uniform_cluster(1, 1, 4, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(job(1, 2, 100), T(0)));
  ASSERT_TRUE(s->submit(job(2, 4, 100), T(0)));  // waits for job 1
  ASSERT_TRUE(s->submit(job(3, 2, 50), T(0)));   // fits before job 2's reservation
  const PassResult r = s->schedule(T(0));
  ASSERT_EQ(r.started.size(), 2u);
  EXPECT_EQ(r.started[0].id, JobId(1));
  EXPECT_FALSE(r.started[0].backfilled);
  EXPECT_EQ(r.started[1].id, JobId(3));
  EXPECT_TRUE(r.started[1].backfilled) << "job 2 ranks above it and still waits";
}

TEST(Scheduler, GpuUsageIsBilledByType) {
  Config c = uniform_cluster(1, 2, 14, BackfillMode::kEasy, 1, "a100");
  c.billing.gpu["a100"] = 6.0;
  auto s = make(c);
  JobSpec j = job(1, 1, 100);
  j.resources.gpus = 1;
  ASSERT_TRUE(s->submit(j, T(0)));
  s->schedule(T(0));
  EXPECT_DOUBLE_EQ(s->job(JobId(1))->billing_rate, 7.0);  // 1 core + 6 per A100
}

}  // namespace
}  // namespace fairway
