// allocation_unit = "socket" | "node": Kebnekaise's large-memory nodes "can be allocated
// per socket or per node" (seed 003), and a job is billed for what it is given.
#include <gtest/gtest.h>

#include "coordinator/core/placement.h"
#include "coordinator/core/request_fit.h"
#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;
constexpr auto job = testing::account_job;

// Nodes of 4 sockets x 18 cores, as Kebnekaise's largemem nodes.
ClusterState largemem(int n, AllocationUnit unit) {
  ClusterState c;
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) {
    names.push_back("lm" + std::to_string(i));
    c.add_node(NodeTopology::uniform(names.back(), 4, 18));
  }
  PlacementConfig pl;
  pl.allocation_unit = unit;
  EXPECT_TRUE(c.add_partition("largemem", names, pl));
  return c;
}

std::vector<std::int32_t> range(std::int32_t from, std::int32_t to) {
  std::vector<std::int32_t> v;
  for (std::int32_t i = from; i < to; ++i) v.push_back(i);
  return v;
}

TEST(PlacementAllocationUnit, SocketUnitGivesWholeSockets) {
  ClusterState c = largemem(1, AllocationUnit::kSocket);
  auto a = place_job(c, PartitionIndex(0), ResourceRequest{0, 20, 0, {}});
  ASSERT_TRUE(a);
  ASSERT_EQ(a->nodes.size(), 1u);
  EXPECT_EQ(a->nodes[0].cores, range(0, 36)) << "20 cores round up to two 18-core sockets";
  c.allocate(*a);
  auto b = place_job(c, PartitionIndex(0), ResourceRequest{0, 18, 0, {}});
  ASSERT_TRUE(b);
  EXPECT_EQ(b->nodes[0].cores, range(36, 54));
  c.allocate(*b);
  // One whole socket is left: 18 cores fit, 19 would need a second socket.
  EXPECT_FALSE(place_job(c, PartitionIndex(0), ResourceRequest{0, 19, 0, {}}));
  EXPECT_TRUE(place_job(c, PartitionIndex(0), ResourceRequest{0, 1, 0, {}}));
}

TEST(PlacementAllocationUnit, SocketUnitNeverTakesAPartlyUsedSocket) {
  ClusterState c;
  c.add_node(NodeTopology::uniform("lm0", 4, 18));
  ASSERT_TRUE(c.add_partition("batch", {"lm0"}));  // core unit
  PlacementConfig sockets;
  sockets.allocation_unit = AllocationUnit::kSocket;
  ASSERT_TRUE(c.add_partition("largemem", {"lm0"}, sockets));
  auto a = place_job(c, PartitionIndex(0), ResourceRequest{0, 1, 0, {}});
  ASSERT_TRUE(a);
  c.allocate(*a);  // one core of socket 0
  auto b = place_job(c, PartitionIndex(1), ResourceRequest{0, 54, 0, {}});
  ASSERT_TRUE(b);
  EXPECT_EQ(b->nodes[0].cores, range(18, 72));
  c.allocate(*b);
  EXPECT_FALSE(place_job(c, PartitionIndex(1), ResourceRequest{0, 1, 0, {}}))
      << "17 cores are free, but no whole socket";
}

TEST(PlacementAllocationUnit, SocketUnitSpreadsWholeSocketsOverNodes) {
  ClusterState c = largemem(2, AllocationUnit::kSocket);
  auto a = place_job(c, PartitionIndex(0), ResourceRequest{0, 80, 0, {}});
  ASSERT_TRUE(a);
  EXPECT_EQ(a->total_cores(), 90) << "four sockets of one node and one of the other";
  EXPECT_EQ(a->nodes.size(), 2u);
}

TEST(PlacementAllocationUnit, ExpectedFootprintRoundsUpToSockets) {
  ClusterState c = largemem(1, AllocationUnit::kSocket);
  EXPECT_EQ(expected_footprint(c, PartitionIndex(0), ResourceRequest{0, 20, 0, {}}), (ResourceAmount{36, 0}));
  EXPECT_EQ(expected_footprint(c, PartitionIndex(0), ResourceRequest{2, 1, 0, {}}), (ResourceAmount{36, 0}));
  ClusterState cores = largemem(1, AllocationUnit::kCore);
  EXPECT_EQ(expected_footprint(cores, PartitionIndex(0), ResourceRequest{0, 20, 0, {}}),
            (ResourceAmount{20, 0}));
}

TEST(PlacementAllocationUnit, WholeNodeRequestCoversCoresAndGpus) {
  ClusterState c = largemem(3, AllocationUnit::kNode);
  const PartitionState& p = c.partition(PartitionIndex(0));
  EXPECT_EQ(whole_node_request(p, ResourceRequest{0, 10, 0, {}}), (ResourceRequest{1, 72, 0, {}}));
  EXPECT_EQ(whole_node_request(p, ResourceRequest{0, 100, 0, {}}), (ResourceRequest{2, 72, 0, {}}));
  EXPECT_EQ(whole_node_request(p, ResourceRequest{3, 5, 0, {}}), (ResourceRequest{3, 72, 0, {}}));
}

Config largemem_config(AllocationUnit unit) {
  Config c = testing::uniform_cluster(2, 4, 18, BackfillMode::kEasy);
  PartitionConfig p;
  p.name = "largemem";
  p.is_default = true;
  p.placement.allocation_unit = unit;
  c.partitions.push_back(p);
  return c;
}

TEST(PlacementAllocationUnit, NodeUnitGivesAndBillsWholeNodes) {
  auto s = testing::make(largemem_config(AllocationUnit::kNode));
  ASSERT_TRUE(s->submit(job(1, "u", "p", 10, 3600), T(0)));
  EXPECT_EQ(s->job(JobId(1))->spec.resources, (ResourceRequest{1, 72, 0, {}}));
  s->schedule(T(0));
  EXPECT_EQ(s->job(JobId(1))->allocation.total_cores(), 72);
  EXPECT_DOUBLE_EQ(s->job(JobId(1))->billing_rate, 72.0);
}

// Seed 003: "The LargeMem nodes can be allocated per socket or per node", with the
// shipped profile: the job is given, and accounted for, whole sockets; above one node,
// whole nodes, as on the thin nodes.
TEST(PlacementAllocationUnit, KebnekaiseLargememIsAllocatedAndBilledPerSocket) {
  auto s = testing::make(testing::profile("kebnekaise"));
  JobSpec a = job(1, "u", "p1", 20, 3600);
  a.partition = "largemem";
  JobSpec b = job(2, "u", "p1", 80, 3600);
  b.partition = "largemem";
  ASSERT_TRUE(s->submit(a, T(0)));
  ASSERT_TRUE(s->submit(b, T(0)));
  EXPECT_EQ(s->job(JobId(1))->need(), (ResourceAmount{36, 0}));
  EXPECT_EQ(s->job(JobId(2))->spec.resources, (ResourceRequest{2, 72, 0, {}}));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  EXPECT_EQ(s->job(JobId(1))->allocation.total_cores(), 36);
  EXPECT_DOUBLE_EQ(s->job(JobId(1))->billing_rate, 36.0);
  EXPECT_EQ(s->job(JobId(2))->allocation.total_cores(), 144);
  EXPECT_DOUBLE_EQ(s->job(JobId(2))->billing_rate, 144.0);
  // The thin nodes keep exact cores up to one node, and whole nodes above.
  ASSERT_TRUE(s->submit(job(3, "u", "p1", 20, 3600), T(0)));
  ASSERT_TRUE(s->submit(job(4, "u", "p1", 40, 3600), T(0)));
  s->schedule(T(0));
  EXPECT_DOUBLE_EQ(s->job(JobId(3))->billing_rate, 20.0);
  EXPECT_DOUBLE_EQ(s->job(JobId(4))->billing_rate, 56.0);
}

}  // namespace
}  // namespace fairway

namespace fairway {
namespace {

// On mixed socket sizes a job may be given more than planned (4 cores on a 12-core
// socket); the start must still not delay a reservation.
TEST(PlacementAllocationUnit, ALargerThanPlannedStartNeverDelaysAReservation) {
  Config c;
  c.nodes.push_back(NodeTopology::uniform("a", 2, 4));
  c.nodes.push_back(NodeTopology::uniform("b", 1, 12));
  PartitionConfig p;
  p.name = "mixed";
  p.is_default = true;
  p.placement.allocation_unit = AllocationUnit::kSocket;
  c.partitions.push_back(p);
  c.scheduler.backfill = BackfillMode::kEasy;
  auto s = testing::make(c);
  ASSERT_TRUE(s->submit(testing::job(1, 8, 100), T(0)));  // fills node a until 100
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  ASSERT_EQ(s->job(JobId(1))->allocation.nodes[0].node, NodeIndex(0));
  JobSpec top = testing::job(2, 16, 1000);
  top.submit_time = T(1);
  JobSpec small = testing::job(3, 4, 1000);  // planned as 4 cores, would get b's 12
  small.submit_time = T(2);
  JobSpec quick = testing::job(4, 4, 50);  // ends before the reservation: may start
  quick.submit_time = T(3);
  ASSERT_TRUE(s->submit(top, T(1)));
  ASSERT_TRUE(s->submit(small, T(2)));
  ASSERT_TRUE(s->submit(quick, T(3)));
  PassResult r = s->schedule(T(10));
  ASSERT_TRUE(s->job(JobId(2))->reserved_start.has_value());
  EXPECT_EQ(*s->job(JobId(2))->reserved_start, T(100));
  ASSERT_EQ(r.started.size(), 1u);
  EXPECT_EQ(r.started[0].id, JobId(4));
  EXPECT_EQ(s->job(JobId(4))->allocation.total_cores(), 12);
  EXPECT_TRUE(s->job(JobId(3))->why.has(PendingReason::kReservationConflict));
}

}  // namespace
}  // namespace fairway
