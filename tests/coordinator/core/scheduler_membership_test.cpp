#include <gtest/gtest.h>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::job;
using testing::T;

std::unique_ptr<Scheduler> registering(Config c = {}) {
  auto s = Scheduler::create(c, NodeSource::kRegistration);
  if (!s) throw std::runtime_error(s.error().message);
  return std::move(*s);
}

TEST(SchedulerMembership, RegisteredNodesJoinThePartitionsWithoutNodeLists) {
  auto s = registering();
  ASSERT_TRUE(s->add_node(NodeTopology::uniform("a", 2, 4)));
  ASSERT_TRUE(s->add_node(NodeTopology::uniform("b", 1, 8)));
  const PartitionState& batch = s->cluster().partition(PartitionIndex(0));
  EXPECT_EQ(batch.nodes.size(), 2u);
  EXPECT_EQ(batch.capacity.cores, 16);
  EXPECT_EQ(batch.free.cores, 16);
  EXPECT_EQ(batch.largest_node_cores, 8);

  ASSERT_TRUE(s->submit(job(1, 12, 60), T(0)));
  auto pass = s->schedule(T(0));
  ASSERT_EQ(pass.started.size(), 1u);
  EXPECT_EQ(s->cluster().partition(PartitionIndex(0)).free.cores, 4);
}

TEST(SchedulerMembership, RejectsDuplicatesUndeclaredNamesAndBadTopologies) {
  auto s = registering();
  ASSERT_TRUE(s->add_node(NodeTopology::uniform("a", 1, 4)));
  auto dup = s->add_node(NodeTopology::uniform("a", 1, 4));
  ASSERT_FALSE(dup);
  EXPECT_NE(dup.error().message.find("'a' already exists"), std::string::npos);
  auto empty = s->add_node(NodeTopology::uniform("z", 0, 4));
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("no cores"), std::string::npos);

  auto declared = testing::make(testing::uniform_cluster(2, 1, 4, BackfillMode::kEasy));
  auto extra = declared->add_node(NodeTopology::uniform("n9", 1, 4));
  ASSERT_FALSE(extra);
  EXPECT_NE(extra.error().message.find("not declared"), std::string::npos);
}

TEST(SchedulerMembership, JobsWaitUntilANodeRegisters) {
  auto s = registering();
  // Admission needs a node that can hold the job; a restored job does not.
  EXPECT_FALSE(s->submit(job(1, 4, 60), T(0)));
  ASSERT_TRUE(s->restore_waiting(job(2, 4, 60), T(0)));
  EXPECT_TRUE(s->schedule(T(1)).started.empty());
  ASSERT_TRUE(s->add_node(NodeTopology::uniform("a", 1, 4)));
  auto pass = s->schedule(T(2));
  ASSERT_EQ(pass.started.size(), 1u);
  EXPECT_EQ(pass.started[0].id, JobId(2));
}

TEST(SchedulerMembership, DownNodesTakeNoJobsAndWithholdWhatIsReleased) {
  auto s = testing::make(testing::uniform_cluster(2, 1, 4, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(job(1, 4, 600), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  const NodeIndex busy = s->job(JobId(1))->allocation.nodes[0].node;
  const NodeIndex other(busy.value() == 0 ? 1u : 0u);

  s->set_node_up(other, false);
  EXPECT_EQ(s->cluster().partition(PartitionIndex(0)).free.cores, 0);
  ASSERT_TRUE(s->submit(job(2, 4, 600), T(1)));
  EXPECT_TRUE(s->schedule(T(1)).started.empty());
  EXPECT_TRUE(s->job(JobId(2))->why.has(PendingReason::kResources));

  s->set_node_up(busy, false);
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(2)));
  EXPECT_EQ(s->cluster().partition(PartitionIndex(0)).free.cores, 0);  // withheld
  EXPECT_TRUE(s->schedule(T(2)).started.empty());

  s->set_node_up(busy, true);
  EXPECT_EQ(s->cluster().partition(PartitionIndex(0)).free.cores, 4);
  auto pass = s->schedule(T(3));
  ASSERT_EQ(pass.started.size(), 1u);
  EXPECT_EQ(s->job(JobId(2))->allocation.nodes[0].node, busy);
}

TEST(SchedulerMembership, RequeueReturnsARunningJobToTheQueue) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(job(1, 4, 600), T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  ASSERT_TRUE(s->requeue(JobId(1), T(10)));
  const JobRecord* j = s->job(JobId(1));
  EXPECT_EQ(j->state, JobState::kPending);
  EXPECT_TRUE(j->allocation.empty());
  EXPECT_EQ(s->cluster().partition(PartitionIndex(0)).free.cores, 4);
  EXPECT_EQ(s->waiting().size(), 1u);
  EXPECT_TRUE(s->running().empty());
  EXPECT_FALSE(s->requeue(JobId(1), T(11)));  // not running any more
  ASSERT_EQ(s->schedule(T(12)).started.size(), 1u);
  EXPECT_EQ(s->job(JobId(1))->start_time, T(12));
}

// The core owns the count the store, the views and SLURM_RESTART_COUNT read: every way
// back to the queue counts once, a failed requeue not at all, and a restart keeps it.
TEST(SchedulerMembership, TheCoreCountsRequeuesAndARestartKeepsTheCount) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy));
  ASSERT_TRUE(s->submit(job(1, 4, 600), T(0)));
  s->schedule(T(0));
  EXPECT_EQ(s->job(JobId(1))->requeue_count, 0);
  ASSERT_TRUE(s->requeue(JobId(1), T(10)));
  EXPECT_FALSE(s->requeue(JobId(1), T(11)));
  EXPECT_EQ(s->job(JobId(1))->requeue_count, 1);
  s->schedule(T(12));
  ASSERT_TRUE(s->requeue(JobId(1), T(20)));
  EXPECT_EQ(s->job(JobId(1))->requeue_count, 2);

  auto restarted = testing::make(testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy));
  ASSERT_TRUE(restarted->restore_waiting(job(1, 2, 600), T(0), 2));
  Allocation a;
  a.nodes.push_back({NodeIndex(0), {0, 1}, {}});
  ASSERT_TRUE(restarted->restore_running(testing::stored_running(job(2, 2, 600), a, T(5), 3)));
  EXPECT_EQ(restarted->job(JobId(1))->requeue_count, 2);
  EXPECT_EQ(restarted->job(JobId(2))->requeue_count, 3);
  ASSERT_TRUE(restarted->requeue(JobId(2), T(30)));
  EXPECT_EQ(restarted->job(JobId(2))->requeue_count, 4);
}

TEST(SchedulerMembership, RestoreRunningTakesTheSameCoresAndRefusesTakenOnes) {
  auto s = testing::make(testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy));
  Allocation a;
  a.nodes.push_back({NodeIndex(0), {1, 2}, {}});
  ASSERT_TRUE(s->restore_running(testing::stored_running(job(7, 2, 600), a, T(100))));
  const JobRecord* j = s->job(JobId(7));
  EXPECT_EQ(j->state, JobState::kRunning);
  EXPECT_EQ(j->start_time, T(100));
  EXPECT_EQ(s->cluster().node(NodeIndex(0)).free_cores, 2);

  auto clash = s->restore_running(testing::stored_running(job(8, 1, 600), a, T(100)));
  ASSERT_FALSE(clash);
  EXPECT_NE(clash.error().message.find("core 1 of node 'n0' is not free"), std::string::npos);
  EXPECT_EQ(s->job(JobId(8)), nullptr);
}

}  // namespace
}  // namespace fairway

namespace fairway {
namespace {

TEST(SchedulerMembership, DownAndUpKeepGpuSocketFencesConsistent) {
  // One Kebnekaise-like node: 2 sockets x 14 cores, one V100 per socket; fencing is on.
  auto s = testing::make(testing::uniform_cluster(1, 2, 14, BackfillMode::kEasy, 1, "v100"));
  JobSpec gpu = testing::job(1, 4, 600);
  gpu.resources.gpus = 1;
  ASSERT_TRUE(s->submit(gpu, testing::T(0)));
  ASSERT_EQ(s->schedule(testing::T(0)).started.size(), 1u);
  const NodeIndex n(0);
  // The GPU job keeps its socket: 14 cores and 1 GPU are left free.
  EXPECT_EQ(s->cluster().node(n).free_cores, 14);
  EXPECT_EQ(s->cluster().node(n).free_gpus, 1);

  s->set_node_up(n, false);
  EXPECT_EQ(s->cluster().node(n).free_cores, 0);
  s->set_node_up(n, true);
  EXPECT_EQ(s->cluster().node(n).free_cores, 14);  // fence derived again from the held GPU
  EXPECT_EQ(s->cluster().node(n).free_gpus, 1);

  s->set_node_up(n, false);
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, testing::T(5)));
  EXPECT_EQ(s->cluster().node(n).free_cores, 0);
  EXPECT_EQ(s->cluster().partition(PartitionIndex(0)).free.cores, 0);
  s->set_node_up(n, true);
  EXPECT_EQ(s->cluster().node(n).free_cores, 28);
  EXPECT_EQ(s->cluster().node(n).free_gpus, 2);
  EXPECT_EQ(s->cluster().partition(PartitionIndex(0)).free.cores, 28);
}

}  // namespace
}  // namespace fairway
