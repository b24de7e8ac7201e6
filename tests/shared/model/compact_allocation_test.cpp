#include "shared/model/compact_allocation.h"

#include <gtest/gtest.h>

#include <random>

namespace fairway {
namespace {

NodeAllocation on(std::uint32_t node, std::vector<std::int32_t> cores, std::vector<std::int32_t> gpus = {},
                  std::int64_t memory_mb = 0) {
  return NodeAllocation{NodeIndex(node), std::move(cores), std::move(gpus), memory_mb};
}

void expect_round_trip(const Allocation& a) {
  const CompactAllocation c(a);
  EXPECT_EQ(c.expand(), a);
  EXPECT_EQ(c.total_cores(), a.total_cores());
  EXPECT_EQ(c.total_gpus(), a.total_gpus());
  EXPECT_EQ(c.total_memory_mb(), a.total_memory_mb());
  EXPECT_EQ(c.node_count(), static_cast<std::int64_t>(a.nodes.size()));
  EXPECT_EQ(c.empty(), a.empty());
}

TEST(CompactAllocationTest, AnEmptyAllocationStaysEmpty) {
  expect_round_trip({});
  EXPECT_EQ(CompactAllocation(Allocation{}).packed_bytes(), 0u);
}

TEST(CompactAllocationTest, KeepsNodeOrderCoreOrderGpusAndMemory) {
  Allocation a;
  a.nodes.push_back(on(7, {5, 3, 4, 0}, {1}, 4096));
  a.nodes.push_back(on(2, {0, 1, 2, 3}, {}, 0));
  a.nodes.push_back(on(3, {0, 1, 2, 3}, {}, 0));
  a.nodes.push_back(on(4, {0, 1, 2, 3}, {0, 1}, 0));
  a.nodes.push_back(on(4000000, {63, 0}, {3, 2}, 1 << 30));
  a.nodes.push_back(on(0, {}, {0}, 12));
  expect_round_trip(a);
}

TEST(CompactAllocationTest, AThousandSingleCoreNodesInARowTakeAFewBytes) {
  Allocation a;
  for (std::uint32_t n = 5000; n < 6000; ++n) a.nodes.push_back(on(n, {0}));
  expect_round_trip(a);
  EXPECT_LT(CompactAllocation(a).packed_bytes(), 16u);

  // Scattered, as best fit leaves them on a busy machine: still a few bytes a node.
  Allocation scattered;
  for (std::uint32_t n = 0; n < 1000; ++n) scattered.nodes.push_back(on((n * 7919u) % 90000u, {0}));
  expect_round_trip(scattered);
  EXPECT_LT(CompactAllocation(scattered).packed_bytes(), 4000u);
}

TEST(CompactAllocationTest, TheCursorReusesOneNodeAllocation) {
  Allocation a;
  a.nodes.push_back(on(1, {0, 1}, {}, 10));
  a.nodes.push_back(on(2, {0, 1}, {}, 10));
  a.nodes.push_back(on(9, {2}, {0}, 5));
  const CompactAllocation c(a);
  auto cursor = c.cursor();
  NodeAllocation na;
  for (const NodeAllocation& want : a.nodes) {
    ASSERT_TRUE(cursor.next(na));
    EXPECT_EQ(na, want);
  }
  EXPECT_FALSE(cursor.next(na));
}

// Random allocations of every shape the placement can produce, and some it cannot
// (repeated nodes, unsorted cores): each comes back exactly.
TEST(CompactAllocationTest, RandomAllocationsComeBackExactly) {
  std::mt19937 rng(20261126);
  for (int round = 0; round < 2000; ++round) {
    Allocation a;
    const int nodes = std::uniform_int_distribution<int>(0, 40)(rng);
    std::uint32_t node = std::uniform_int_distribution<std::uint32_t>(0, 100000)(rng);
    for (int i = 0; i < nodes; ++i) {
      const int step = std::uniform_int_distribution<int>(-3, 5)(rng);
      node = static_cast<std::uint32_t>(std::max<std::int64_t>(0, static_cast<std::int64_t>(node) + step));
      if (i > 0 && step == 1 && rng() % 2 == 0) {  // the same share as the node before
        NodeAllocation same = a.nodes.back();
        same.node = NodeIndex(node);
        a.nodes.push_back(std::move(same));
        continue;
      }
      NodeAllocation na{
          NodeIndex(node), {}, {}, std::uniform_int_distribution<std::int64_t>(0, 1 << 20)(rng)};
      const int cores = std::uniform_int_distribution<int>(0, 12)(rng);
      std::int32_t core = std::uniform_int_distribution<std::int32_t>(0, 200)(rng);
      for (int k = 0; k < cores; ++k) {
        na.cores.push_back(core);
        core = std::max(0, core + std::uniform_int_distribution<std::int32_t>(-4, 4)(rng));
      }
      const int gpus = std::uniform_int_distribution<int>(0, 4)(rng);
      for (int k = 0; k < gpus; ++k)
        na.gpus.push_back(std::uniform_int_distribution<std::int32_t>(0, 7)(rng));
      a.nodes.push_back(std::move(na));
    }
    SCOPED_TRACE(round);
    expect_round_trip(a);
  }
}

}  // namespace
}  // namespace fairway
