// Memory as a scheduled resource (issue 11): --mem and --mem-per-cpu are counted per node
// by placement, by backfill's plans and at admission, wherever nodes declare memory_mb.
#include <gtest/gtest.h>

#include "coordinator/core/placement.h"
#include "coordinator/core/request_fit.h"
#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;

constexpr std::int64_t kNodeMemory = 8000;

// `n` nodes of 4 cores and 8000 MiB each, one partition.
ClusterState small_nodes(int n, std::int64_t memory_mb = kNodeMemory) {
  ClusterState c;
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) {
    NodeTopology t = NodeTopology::uniform("n" + std::to_string(i), 1, 4);
    t.memory_mb = memory_mb;
    names.push_back(t.name);
    c.add_node(std::move(t));
  }
  EXPECT_TRUE(c.add_partition("batch", names));
  return c;
}

ResourceRequest with_mem(std::int32_t cores, std::int64_t per_node, std::int64_t per_cpu = 0,
                         std::int32_t nodes = 0) {
  ResourceRequest r;
  r.nodes = nodes;
  r.cores = cores;
  r.memory_per_node_mb = per_node;
  r.memory_per_cpu_mb = per_cpu;
  return r;
}

Config memory_config(int nodes, BackfillMode mode = BackfillMode::kEasy) {
  Config c = testing::uniform_cluster(nodes, 1, 4, mode);
  for (auto& n : c.nodes) n.memory_mb = kNodeMemory;
  return c;
}

JobSpec mem_job(std::uint64_t id, std::int32_t cores, std::int64_t mem_mb, std::int64_t limit_s) {
  JobSpec s = testing::job(id, cores, limit_s);
  s.resources.memory_per_node_mb = mem_mb;
  return s;
}

TEST(MemoryPlacement, ANodeWithFreeCoresButNoMemoryLeftIsPassedOver) {
  ClusterState c = small_nodes(2);
  auto a = place_job(c, PartitionIndex(0), with_mem(1, 6000));
  ASSERT_TRUE(a);
  ASSERT_EQ(a->nodes.size(), 1u);
  EXPECT_EQ(a->nodes[0].memory_mb, 6000);
  c.allocate(*a);
  EXPECT_EQ(c.node(a->nodes[0].node).free_memory_mb(), 2000);
  EXPECT_EQ(c.partition(PartitionIndex(0)).free.memory_mb, 2 * kNodeMemory - 6000);
  // Best fit would pick the fuller node (3 cores free), but it has 2000 MiB left.
  auto b = place_job(c, PartitionIndex(0), with_mem(1, 6000));
  ASSERT_TRUE(b);
  EXPECT_NE(b->nodes[0].node, a->nodes[0].node);
  c.allocate(*b);
  EXPECT_FALSE(place_job(c, PartitionIndex(0), with_mem(1, 2001)));
  EXPECT_TRUE(place_job(c, PartitionIndex(0), with_mem(1, 2000)));
  c.release(*a);
  EXPECT_EQ(c.node(a->nodes[0].node).free_memory_mb(), kNodeMemory);
}

TEST(MemoryPlacement, PerCoreMemorySpreadsAJobOverNodesThatCanFeedIt) {
  ClusterState c = small_nodes(2);
  // 4 cores x 3000 MiB cannot share one 8000 MiB node: two cores on each of two nodes.
  auto a = place_job(c, PartitionIndex(0), with_mem(4, 0, 3000));
  ASSERT_TRUE(a);
  ASSERT_EQ(a->nodes.size(), 2u);
  for (const NodeAllocation& na : a->nodes) {
    EXPECT_EQ(na.cores.size(), 2u);
    EXPECT_EQ(na.memory_mb, 6000);
  }
  EXPECT_EQ(a->total_memory_mb(), 12000);
  EXPECT_TRUE(can_ever_fit(c, PartitionIndex(0), with_mem(4, 0, 3000)));
  EXPECT_FALSE(can_ever_fit(c, PartitionIndex(0), with_mem(6, 0, 3000)))
      << "only 2 cores per node can be fed";
  EXPECT_FALSE(can_ever_fit(c, PartitionIndex(0), with_mem(1, 8001)));
  EXPECT_TRUE(can_ever_fit(c, PartitionIndex(0), with_mem(2, 5000, 0, 2)));
  EXPECT_FALSE(can_ever_fit(c, PartitionIndex(0), with_mem(2, 5000, 0, 3))) << "two nodes";
}

TEST(MemoryPlacement, NodeShapedJobsTakeOnlyNodesWithTheirMemoryFree) {
  ClusterState c = small_nodes(3);
  auto first = place_job(c, PartitionIndex(0), with_mem(1, 4000));
  ASSERT_TRUE(first);
  c.allocate(*first);
  auto a = place_job(c, PartitionIndex(0), with_mem(1, 6000, 0, 2));
  ASSERT_TRUE(a);
  ASSERT_EQ(a->nodes.size(), 2u);
  for (const NodeAllocation& na : a->nodes) {
    EXPECT_NE(na.node, first->nodes[0].node);
    EXPECT_EQ(na.memory_mb, 6000);
  }
  c.allocate(*a);
  const NodeIndex nodes[] = {first->nodes[0].node};
  EXPECT_FALSE(place_on_nodes(c, with_mem(1, 4001, 0, 1), nodes));
  EXPECT_TRUE(place_on_nodes(c, with_mem(1, 4000, 0, 1), nodes));
}

TEST(MemoryPlacement, NodesThatDeclareNoMemoryDoNotScheduleIt) {
  ClusterState c = small_nodes(1, 0);
  auto a = place_job(c, PartitionIndex(0), with_mem(1, 1'000'000));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->nodes[0].memory_mb, 1'000'000) << "still the job's limit on the node";
  c.allocate(*a);
  EXPECT_TRUE(place_job(c, PartitionIndex(0), with_mem(1, 1'000'000)));
  EXPECT_TRUE(can_ever_fit(c, PartitionIndex(0), with_mem(4, 0, 1'000'000)));
}

TEST(MemoryPlacement, WholeSocketsCarryTheirCoresMemory) {
  ClusterState c;
  NodeTopology t = NodeTopology::uniform("lm0", 4, 18);
  t.memory_mb = 72 * 1000;
  c.add_node(std::move(t));
  PlacementConfig sockets;
  sockets.allocation_unit = AllocationUnit::kSocket;
  ASSERT_TRUE(c.add_partition("largemem", {"lm0"}, sockets));
  // 10 cores round up to an 18-core socket, and per-core memory follows the 18.
  auto a = place_job(c, PartitionIndex(0), with_mem(10, 0, 1000));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->nodes[0].cores.size(), 18u);
  EXPECT_EQ(a->nodes[0].memory_mb, 18000);
  EXPECT_EQ(expected_footprint(c, PartitionIndex(0), with_mem(10, 0, 1000)).memory_mb, 18000);
  c.allocate(*a);
  EXPECT_FALSE(place_job(c, PartitionIndex(0), with_mem(1, 54001))) << "54000 MiB are left";
}

TEST(MemoryScheduling, AJobWaitsForMemoryWithFreeCoresAndStartsWhenItIsBack) {
  auto s = testing::make(memory_config(1));
  ASSERT_TRUE(s->submit(mem_job(1, 1, 6000, 3600), T(0)));
  ASSERT_TRUE(s->submit(mem_job(2, 1, 6000, 3600), T(0)));
  s->schedule(T(0));
  EXPECT_EQ(s->job(JobId(1))->state, JobState::kRunning);
  const JobRecord* second = s->job(JobId(2));
  EXPECT_EQ(second->state, JobState::kPending);
  EXPECT_EQ(s->cluster().node(NodeIndex(0)).free_cores, 3) << "cores were not what it lacked";
  EXPECT_TRUE(second->why.has(PendingReason::kResources));
  ASSERT_TRUE(second->why.estimated_start);
  EXPECT_EQ(*second->why.estimated_start, T(3600));
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(1800)));
  s->schedule(T(1800));
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kRunning);
}

TEST(MemoryScheduling, BackfillKeepsTheMemoryAReservationNeeds) {
  auto s = testing::make(memory_config(1));
  ASSERT_TRUE(s->submit(mem_job(1, 1, 4000, 3600), T(0)));
  s->schedule(T(0));
  ASSERT_EQ(s->job(JobId(1))->state, JobState::kRunning);
  // Job 2 needs the whole node's memory at 3600; job 3 fits now (4000 MiB free) but would
  // still hold 1000 MiB then; job 4 ends before and may go.
  ASSERT_TRUE(s->submit(mem_job(2, 1, kNodeMemory, 3600), T(10)));
  ASSERT_TRUE(s->submit(mem_job(3, 1, 1000, 7200), T(20)));
  ASSERT_TRUE(s->submit(mem_job(4, 1, 1000, 1800), T(30)));
  s->schedule(T(60));
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kPending);
  EXPECT_EQ(s->job(JobId(3))->state, JobState::kPending) << "it would delay job 2";
  EXPECT_EQ(s->job(JobId(4))->state, JobState::kRunning);
}

TEST(MemoryScheduling, AdmissionRefusesMoreMemoryThanAnyNodeHasNamingIt) {
  auto s = testing::make(memory_config(2));
  auto st = s->submit(mem_job(1, 1, 9000, 60), T(0));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("9000 MiB of memory per node"), std::string::npos) << st.error().message;
  EXPECT_NE(st.error().message.find("the largest node 8000 MiB"), std::string::npos) << st.error().message;
}

TEST(MemoryScheduling, APartitionDefaultPerCoreIsScheduledToo) {
  Config c = memory_config(1);
  PartitionConfig batch;
  batch.name = "batch";
  batch.is_default = true;
  batch.default_mem_per_cpu_mb = 3000;
  c.partitions.push_back(batch);
  auto s = testing::make(c);
  ASSERT_TRUE(s->submit(testing::job(1, 2, 3600), T(0)));
  ASSERT_TRUE(s->submit(testing::job(2, 1, 3600), T(0)));
  s->schedule(T(0));
  EXPECT_EQ(s->job(JobId(1))->allocation.nodes[0].memory_mb, 6000);
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kPending) << "2000 MiB left, 3000 needed";
}

TEST(MemoryScheduling, MemoryIsBilledByItsWeight) {
  Config c = memory_config(1);
  c.billing.memory_per_gb = 0.25;
  auto s = testing::make(c);
  ASSERT_TRUE(s->submit(mem_job(1, 2, 4096, 3600), T(0)));
  s->schedule(T(0));
  EXPECT_DOUBLE_EQ(s->job(JobId(1))->billing_rate, 2.0 + 0.25 * 4.0);
}

TEST(MemoryScheduling, ARestoredJobHoldsItsMemoryAgain) {
  auto s = testing::make(memory_config(1));
  Allocation a;
  a.nodes.push_back({NodeIndex(0), {0}, {}});  // as stored: cores, no memory
  ASSERT_TRUE(s->restore_running(testing::stored_running(mem_job(1, 1, 5000, 3600), a, T(0))));
  EXPECT_EQ(s->cluster().node(NodeIndex(0)).free_memory_mb(), 3000);
  ASSERT_TRUE(s->submit(mem_job(2, 1, 5000, 3600), T(10)));
  s->schedule(T(10));
  EXPECT_EQ(s->job(JobId(2))->state, JobState::kPending);
}

TEST(MemoryScheduling, ADownNodeOffersNoMemory) {
  auto s = testing::make(memory_config(1));
  s->set_node_up(NodeIndex(0), false);
  EXPECT_EQ(s->cluster().partition(PartitionIndex(0)).free.memory_mb, 0);
  s->set_node_up(NodeIndex(0), true);
  EXPECT_EQ(s->cluster().partition(PartitionIndex(0)).free.memory_mb, kNodeMemory);
}

// Seed 003: thin nodes have 192 GB, "the largemem nodes have 3 TB memory per node".
TEST(MemoryScheduling, KebnekaiseSendsBigMemoryToTheLargememNodes) {
  auto s = testing::make(testing::profile("kebnekaise"));
  JobSpec big = mem_job(1, 4, 1'000'000, 3600);
  big.account = "hpc2n-2024-001";
  auto refused = s->submit(big, T(0));
  ASSERT_FALSE(refused) << "no batch node has 1 TB";
  EXPECT_NE(refused.error().message.find("196608 MiB"), std::string::npos) << refused.error().message;
  big.partition = "largemem";
  ASSERT_TRUE(s->submit(big, T(0)));
  s->schedule(T(0));
  EXPECT_EQ(s->job(JobId(1))->state, JobState::kRunning);
}

}  // namespace
}  // namespace fairway
