// Island placement (Sigma2 seed 001, "Job Placement on Fram": "the queue system is
// configured to run each job within one island, if possible").
#include <gtest/gtest.h>

#include <set>

#include "coordinator/core/placement.h"
#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::T;
constexpr PartitionIndex kP{0};

// Islands "i1" and "i2" of `per_island` nodes each (4 cores per node); node k of island
// i is named i<i>n<k>, and node indices run i1 first.
ClusterState two_islands(int per_island, IslandPlacement mode) {
  ClusterState c;
  std::vector<std::string> names;
  for (int i = 1; i <= 2; ++i) {
    for (int k = 0; k < per_island; ++k) {
      NodeTopology t = NodeTopology::uniform("i" + std::to_string(i) + "n" + std::to_string(k), 1, 4);
      t.island = "i" + std::to_string(i);
      names.push_back(t.name);
      c.add_node(std::move(t));
    }
  }
  PlacementConfig pl;
  pl.island_placement = mode;
  EXPECT_TRUE(c.add_partition("normal", names, pl));
  return c;
}

ResourceRequest nodes(std::int32_t n) {
  return {n, 4, 0, {}};
}

// Fills node `index` completely.
void fill(ClusterState& c, std::uint32_t index) {
  Allocation a;
  a.nodes.push_back({NodeIndex(index), {0, 1, 2, 3}, {}});
  c.allocate(a);
}

std::set<std::string> islands_of(const ClusterState& c, const Allocation& a) {
  std::set<std::string> s;
  for (const auto& na : a.nodes) s.insert(c.node(na.node).topology.island);
  return s;
}

// Sigma2 (seed 001): a job no single island can hold must not wait forever under
// island_placement = "require". Cores alone are not enough: 3 nodes of 1 core fit in an
// island's 8 cores, but not in its 2 nodes.
TEST(PlacementIsland, AJobNoIslandCanEverHoldSpansIslandsEvenWhenRequired) {
  ClusterState c = two_islands(2, IslandPlacement::kRequire);
  auto wide = place_job(c, kP, ResourceRequest{3, 1, 0, {}});
  ASSERT_TRUE(wide) << "waits forever for an island of 3 nodes";
  EXPECT_EQ(islands_of(c, *wide), (std::set<std::string>{"i1", "i2"}));
  // One an island could hold still waits for one island.
  fill(c, 0);
  fill(c, 2);
  EXPECT_FALSE(place_job(c, kP, ResourceRequest{2, 1, 0, {}}));
}

TEST(PlacementIsland, MultiNodeJobStaysInOneIsland) {
  ClusterState c = two_islands(3, IslandPlacement::kPrefer);
  fill(c, 0);  // i1 has two free nodes, i2 three
  auto a = place_job(c, kP, nodes(3));
  ASSERT_TRUE(a);
  EXPECT_EQ(islands_of(c, *a), (std::set<std::string>{"i2"}));
  auto spread = place_job(c, kP, ResourceRequest{0, 12, 0, {}});
  ASSERT_TRUE(spread);
  EXPECT_EQ(islands_of(c, *spread), (std::set<std::string>{"i2"})) << "spread jobs too";
}

TEST(PlacementIsland, BestFitIslandKeepsTheEmptierIslandWhole) {
  ClusterState c = two_islands(3, IslandPlacement::kRequire);
  fill(c, 0);  // i1: two free nodes; i2: three
  auto a = place_job(c, kP, nodes(2));
  ASSERT_TRUE(a);
  EXPECT_EQ(islands_of(c, *a), (std::set<std::string>{"i1"}));
}

TEST(PlacementIsland, RequireWaitsWhereNoIslandHasRoomNow) {
  ClusterState c = two_islands(2, IslandPlacement::kRequire);
  fill(c, 0);  // i1: one free node
  fill(c, 2);  // i2: one free node
  EXPECT_FALSE(place_job(c, kP, nodes(2))) << "two free nodes, but in different islands";
  auto a = place_job(c, kP, nodes(2), /*allow_multi_island=*/true);
  ASSERT_TRUE(a) << "the job's own override";
  EXPECT_EQ(islands_of(c, *a).size(), 2u);
}

TEST(PlacementIsland, PreferSpansIslandsRatherThanWait) {
  ClusterState c = two_islands(2, IslandPlacement::kPrefer);
  fill(c, 0);
  fill(c, 2);
  auto a = place_job(c, kP, nodes(2));
  ASSERT_TRUE(a);
  EXPECT_EQ(islands_of(c, *a).size(), 2u);
}

TEST(PlacementIsland, AJobLargerThanEveryIslandSpans) {
  ClusterState c = two_islands(2, IslandPlacement::kRequire);
  auto a = place_job(c, kP, nodes(3));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->nodes.size(), 3u);
  EXPECT_EQ(islands_of(c, *a).size(), 2u);
}

TEST(PlacementIsland, AnyIgnoresIslands) {
  ClusterState c = two_islands(2, IslandPlacement::kAny);
  fill(c, 0);
  fill(c, 2);
  EXPECT_TRUE(place_job(c, kP, nodes(2)));
}

TEST(PlacementIsland, SingleNodeJobsKeepBestFitAcrossIslands) {
  ClusterState c = two_islands(2, IslandPlacement::kRequire);
  Allocation part;
  part.nodes.push_back({NodeIndex(3), {0, 1}, {}});  // i2's second node: 2 cores free
  c.allocate(part);
  auto a = place_job(c, kP, ResourceRequest{0, 2, 0, {}});
  ASSERT_TRUE(a);
  EXPECT_EQ(a->nodes[0].node, NodeIndex(3));
}

// The shipped Fram profile: each multi-node job within one island, the best-fitting one.
TEST(PlacementIsland, FramProfileKeepsJobsWithinOneIsland) {
  auto s = testing::make(testing::profile("sigma2"));
  auto island_set = [&](std::uint64_t id) {
    std::set<std::string> out;
    for (const auto& na : s->job(JobId(id))->allocation.nodes) {
      out.insert(s->cluster().node(na.node).topology.island);
    }
    return out;
  };
  JobSpec big = testing::job(1, 32, 86400);
  big.resources.nodes = 240;
  ASSERT_TRUE(s->submit(big, T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 1u);
  ASSERT_EQ(island_set(1).size(), 1u);
  const std::string first = *island_set(1).begin();

  JobSpec twenty = testing::job(2, 32, 86400);
  twenty.resources.nodes = 20;  // more than the 10 nodes left in the first island
  JobSpec ten = testing::job(3, 32, 86400);
  ten.resources.nodes = 10;  // exactly the first island's rest
  ASSERT_TRUE(s->submit(twenty, T(0)));
  ASSERT_TRUE(s->submit(ten, T(0)));
  ASSERT_EQ(s->schedule(T(0)).started.size(), 2u);
  ASSERT_EQ(island_set(2).size(), 1u);
  EXPECT_NE(*island_set(2).begin(), first);
  EXPECT_EQ(island_set(3), (std::set<std::string>{first}));
}

}  // namespace
}  // namespace fairway
