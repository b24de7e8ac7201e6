#include "coordinator/core/placement.h"
#include "coordinator/core/request_fit.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

ClusterState kebnekaise_like(int gpu_nodes, int cpu_nodes) {
  ClusterState c;
  for (int i = 0; i < gpu_nodes; ++i)
    c.add_node(NodeTopology::uniform("g" + std::to_string(i), 2, 14, 1, "v100"));
  for (int i = 0; i < cpu_nodes; ++i) c.add_node(NodeTopology::uniform("c" + std::to_string(i), 2, 14));
  std::vector<std::string> names;
  for (std::size_t i = 0; i < c.node_count(); ++i)
    names.push_back(c.node(NodeIndex(static_cast<std::uint32_t>(i))).topology.name);
  EXPECT_TRUE(c.add_partition("batch", names));
  return c;
}

ResourceRequest cores(std::int32_t n) {
  return ResourceRequest{0, n, 0, {}};
}

TEST(Placement, SmallJobGoesOnOneNodeLowestCoresFirst) {
  ClusterState c = kebnekaise_like(0, 2);
  auto a = place_job(c, PartitionIndex(0), cores(4));
  ASSERT_TRUE(a);
  ASSERT_EQ(a->nodes.size(), 1u);
  EXPECT_EQ(a->nodes[0].cores, (std::vector<std::int32_t>{0, 1, 2, 3}));
}

// A job's nodes come in Slurm's host order whatever order they are configured or found in:
// the first is its batch host (twonode.sh's Slurm: nodes vm1 then vm, a -N2 job "vm,vm1").
TEST(Placement, AJobsNodesAreInSlurmsHostOrder) {
  ClusterState c;
  for (const char* name : {"vm1", "vm", "n10", "n9"}) c.add_node(NodeTopology::uniform(name, 2, 14));
  ASSERT_TRUE(c.add_partition("batch", {"vm1", "vm", "n10", "n9"}));
  const auto a = place_job(c, PartitionIndex(0), ResourceRequest{4, 28, 0, {}});
  ASSERT_TRUE(a);
  std::vector<std::string> names;
  for (const NodeAllocation& na : a->nodes) names.push_back(c.node(na.node).topology.name);
  EXPECT_EQ(names, (std::vector<std::string>{"n9", "n10", "vm", "vm1"}));
}

// Allocations restored from the store keep the order they were stored in: a list whose
// ends span as many cores as it holds ({2, 0, 1, 5}) is still not the run 2..5.
TEST(Placement, AnUnsortedCoreListMarksExactlyItsCores) {
  ClusterState c = kebnekaise_like(0, 1);
  Allocation a;
  a.nodes.push_back(NodeAllocation{NodeIndex(0), {2, 0, 1, 5}, {}, 0});
  c.allocate(a);
  const NodeState& n = c.node(NodeIndex(0));
  for (std::size_t core = 0; core < 8; ++core) {
    EXPECT_EQ(n.core_used[core], core <= 2 || core == 5 ? 1 : 0) << "core " << core;
  }
  EXPECT_EQ(n.socket_used_cores[0], 4);
  c.release(a);
  for (std::size_t core = 0; core < 8; ++core) EXPECT_EQ(n.core_used[core], 0) << "core " << core;
  EXPECT_EQ(n.free_cores, 28);
}

TEST(Placement, BestFitPrefersTheFullestNodeThatHolds) {
  ClusterState c = kebnekaise_like(0, 2);
  auto first = place_job(c, PartitionIndex(0), cores(20));
  ASSERT_TRUE(first);
  c.allocate(*first);  // one node has 8 free, the other 28
  auto a = place_job(c, PartitionIndex(0), cores(6));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->nodes[0].node, first->nodes[0].node);
}

TEST(Placement, LargeSpreadJobTakesEmptiestNodesFirst) {
  ClusterState c = kebnekaise_like(0, 3);
  auto a = place_job(c, PartitionIndex(0), cores(40));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->total_cores(), 40);
  EXPECT_EQ(a->nodes.size(), 2u);
}

TEST(Placement, GpuJobGetsCoresOnItsGpusSocket) {
  ClusterState c = kebnekaise_like(1, 0);
  // Occupy socket 0's GPU so the job's GPU is on socket 1.
  auto first = place_job(c, PartitionIndex(0), ResourceRequest{1, 1, 1, "v100"});
  ASSERT_TRUE(first);
  c.allocate(*first);
  EXPECT_EQ(first->nodes[0].gpus, (std::vector<std::int32_t>{0}));
  auto a = place_job(c, PartitionIndex(0), ResourceRequest{1, 4, 1, "v100"});
  ASSERT_TRUE(a);
  EXPECT_EQ(a->nodes[0].gpus, (std::vector<std::int32_t>{1}));
  for (std::int32_t core : a->nodes[0].cores) EXPECT_GE(core, 14) << "core " << core << " is on socket 0";
}

TEST(Placement, WrongGpuTypeNeverFits) {
  ClusterState c = kebnekaise_like(1, 1);
  EXPECT_FALSE(place_job(c, PartitionIndex(0), ResourceRequest{0, 1, 1, "a100"}));
  EXPECT_FALSE(can_ever_fit(c, PartitionIndex(0), ResourceRequest{0, 1, 1, "a100"}));
  EXPECT_TRUE(can_ever_fit(c, PartitionIndex(0), ResourceRequest{0, 1, 2, "v100"}));
  EXPECT_FALSE(can_ever_fit(c, PartitionIndex(0), ResourceRequest{0, 1, 3, "v100"}));
}

TEST(Placement, PerNodeRequestNeedsThatManyNodesEachHoldingIt) {
  ClusterState c = kebnekaise_like(0, 2);
  auto a = place_job(c, PartitionIndex(0), ResourceRequest{2, 28, 0, {}});
  ASSERT_TRUE(a);
  EXPECT_EQ(a->nodes.size(), 2u);
  auto half = place_job(c, PartitionIndex(0), cores(10));
  c.allocate(*half);
  // 46 cores are free in total, but no longer two whole nodes: fragmented.
  EXPECT_FALSE(place_job(c, PartitionIndex(0), ResourceRequest{2, 28, 0, {}}));
  EXPECT_FALSE(can_ever_fit(c, PartitionIndex(0), ResourceRequest{3, 28, 0, {}}));
}

TEST(Placement, ReleaseMakesResourcesFreeAgain) {
  ClusterState c = kebnekaise_like(0, 1);
  auto a = place_job(c, PartitionIndex(0), cores(28));
  c.allocate(*a);
  EXPECT_EQ(c.partition(PartitionIndex(0)).free.cores, 0);
  EXPECT_FALSE(place_job(c, PartitionIndex(0), cores(1)));
  c.release(*a);
  EXPECT_EQ(c.partition(PartitionIndex(0)).free.cores, 28);
  EXPECT_TRUE(place_job(c, PartitionIndex(0), cores(28)));
}

}  // namespace
}  // namespace fairway

namespace fairway {
namespace {

TEST(Placement, CpuJobsPreferNodesWithoutGpus) {
  ClusterState c = kebnekaise_like(2, 2);  // g0 g1 first, then c0 c1
  auto one = place_job(c, PartitionIndex(0), cores(4));
  ASSERT_TRUE(one);
  EXPECT_EQ(c.node(one->nodes[0].node).topology.total_gpus(), 0);
  auto whole = place_job(c, PartitionIndex(0), ResourceRequest{2, 28, 0, {}});
  ASSERT_TRUE(whole);
  for (const auto& na : whole->nodes) EXPECT_EQ(c.node(na.node).topology.total_gpus(), 0);
  // With the CPU nodes taken, a CPU job may still use a GPU node's cores.
  c.allocate(*whole);
  auto spill = place_job(c, PartitionIndex(0), cores(4));
  ASSERT_TRUE(spill);
  EXPECT_EQ(c.node(spill->nodes[0].node).topology.total_gpus(), 2);
}

}  // namespace
}  // namespace fairway
