// NodeAvailability: node-shaped requests planned on whole nodes, not on partition totals.
#include "coordinator/core/node_availability.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

Time T(std::int64_t s) {
  return Time::from_seconds(s);
}

// Two nodes of two cores; core 0 of n0 busy until 100, core 0 of n1 until 200.
class NodeAvailabilityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_.add_node(NodeTopology::uniform("n0", 1, 2));
    cluster_.add_node(NodeTopology::uniform("n1", 1, 2));
    p_ = *cluster_.add_partition("p", {"n0", "n1"});
    Allocation busy;
    busy.nodes = {{NodeIndex(0), {0}, {}}, {NodeIndex(1), {0}, {}}};
    cluster_.allocate(busy);
    const std::vector<NodeAvailability::Release> releases = {{NodeIndex(0), T(100), {1, 0}},
                                                             {NodeIndex(1), T(200), {1, 0}}};
    nodes_.reset(cluster_, T(0), releases);
  }
  static ResourceRequest one_node(std::int32_t cores) {
    ResourceRequest r;
    r.nodes = 1;
    r.cores = cores;
    return r;
  }
  ClusterState cluster_;
  PartitionIndex p_;
  NodeAvailability nodes_;
};

TEST_F(NodeAvailabilityTest, TwoFreeCoresOnTwoNodesDoNotMakeAWholeNode) {
  EXPECT_EQ(nodes_.free_at(NodeIndex(0), T(0)).cores, 1);
  const auto slot = nodes_.earliest(cluster_, p_, one_node(2), Duration::seconds(300), T(0));
  EXPECT_EQ(slot.start, T(100)) << "totals say 0: two cores are free, one on each node";
  ASSERT_EQ(slot.nodes.size(), 1u);
  EXPECT_EQ(slot.nodes[0], NodeIndex(0));
}

TEST_F(NodeAvailabilityTest, PinnedReservationSendsTheNextJobToTheOtherNode) {
  nodes_.reserve(NodeIndex(0), T(100), Duration::seconds(300), {2, 0});
  const auto slot = nodes_.earliest(cluster_, p_, one_node(2), Duration::seconds(300), T(0));
  EXPECT_EQ(slot.start, T(200));
  ASSERT_EQ(slot.nodes.size(), 1u);
  EXPECT_EQ(slot.nodes[0], NodeIndex(1));
  // A one-core job fits before the reservation on n0, not across it.
  Allocation short_job;
  short_job.nodes = {{NodeIndex(0), {1}, {}}};
  EXPECT_TRUE(nodes_.fits(short_job, T(0), Duration::seconds(100)));
  EXPECT_FALSE(nodes_.fits(short_job, T(0), Duration::seconds(101)));
  // Two nodes at once only when both are whole for the window.
  ResourceRequest both = one_node(2);
  both.nodes = 2;
  EXPECT_EQ(nodes_.earliest(cluster_, p_, both, Duration::seconds(50), T(0)).start, T(400));
  EXPECT_EQ(nodes_.earliest(cluster_, p_, both, Duration::seconds(50), T(0)).nodes.size(), 2u);
}

TEST_F(NodeAvailabilityTest, AtFindsNodesFreeForTheWholeWindowOrNone) {
  nodes_.reserve(NodeIndex(0), T(100), Duration::seconds(300), {2, 0});
  const auto later = nodes_.at(cluster_, p_, one_node(2), Duration::seconds(100), T(400));
  EXPECT_EQ(later.start, T(400));
  ASSERT_EQ(later.nodes.size(), 1u);
  EXPECT_EQ(later.nodes[0], NodeIndex(0));
  EXPECT_TRUE(nodes_.at(cluster_, p_, one_node(2), Duration::seconds(100), T(150)).start.is_never())
      << "n0 is reserved and n1 still has a busy core at 150";
  const auto both = nodes_.at(cluster_, p_, one_node(1), Duration::seconds(50), T(0));
  EXPECT_EQ(both.start, T(0));
}

TEST_F(NodeAvailabilityTest, RequestsNoNodeCanHoldNeverStart) {
  EXPECT_TRUE(nodes_.earliest(cluster_, p_, one_node(3), Duration::seconds(10), T(0)).start.is_never());
  ResourceRequest three = one_node(1);
  three.nodes = 3;
  EXPECT_TRUE(nodes_.earliest(cluster_, p_, three, Duration::seconds(10), T(0)).start.is_never());
  ResourceRequest gpu = one_node(1);
  gpu.gpus = 1;
  EXPECT_TRUE(nodes_.earliest(cluster_, p_, gpu, Duration::seconds(10), T(0)).start.is_never());
}

TEST(NodeAvailability, GpuTypeChoosesTheNodes) {
  ClusterState cluster;
  cluster.add_node(NodeTopology::uniform("a", 1, 4, 1, "a100"));
  cluster.add_node(NodeTopology::uniform("v", 1, 4, 1, "v100"));
  cluster.add_node(NodeTopology::uniform("c", 1, 4));
  const PartitionIndex p = *cluster.add_partition("p", {"a", "v", "c"});
  NodeAvailability nodes;
  nodes.reset(cluster, T(0), {});
  ResourceRequest r;
  r.nodes = 1;
  r.cores = 1;
  r.gpus = 1;
  r.gpu_type = "v100";
  auto slot = nodes.earliest(cluster, p, r, Duration::seconds(10), T(5));
  EXPECT_EQ(slot.start, T(5));
  ASSERT_EQ(slot.nodes.size(), 1u);
  EXPECT_EQ(slot.nodes[0], NodeIndex(1));
  r.gpus = 0;
  r.gpu_type.clear();
  slot = nodes.earliest(cluster, p, r, Duration::seconds(10), T(0));
  ASSERT_EQ(slot.nodes.size(), 1u);
  EXPECT_EQ(slot.nodes[0], NodeIndex(2)) << "CPU work goes to the node without GPUs first";
}

}  // namespace
}  // namespace fairway
