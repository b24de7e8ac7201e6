// The placement keys: a node's island, a partition's allocation_unit,
// socket_exclusive_gpus and island_placement (shared/config/config_placement.cpp).
#include <gtest/gtest.h>

#include <string>

#include "config_test_util.h"
#include "shared/config/config.h"

namespace fairway {
namespace {

using config_test::kNode;
using config_test::parse_error;
using config_test::parse_ok;

TEST(ConfigPlacement, DefaultsKeepCoresFenceGpuSocketsAndPreferOneIsland) {
  Config c = parse_ok(kNode);
  ASSERT_EQ(c.partitions.size(), 1u);
  EXPECT_EQ(c.partitions[0].placement.allocation_unit, AllocationUnit::kCore);
  EXPECT_TRUE(c.partitions[0].placement.socket_exclusive_gpus);
  EXPECT_EQ(c.partitions[0].placement.island_placement, IslandPlacement::kPrefer);
  EXPECT_EQ(c.nodes[0].island, "");
}

TEST(ConfigPlacement, KeysParse) {
  Config c = parse_ok(R"(
[[nodes]]
names = "c1-[1-2]"
cores_per_socket = 16
island = "i1"
[[nodes]]
names = "c2-[1-2]"
cores_per_socket = 16
island = "i2"
[[partitions]]
name = "normal"
island_placement = "require"
[[partitions]]
name = "bigmem"
allocation_unit = "socket"
socket_exclusive_gpus = false
island_placement = "any"
[[partitions]]
name = "whole"
allocation_unit = "node"
)");
  EXPECT_EQ(c.nodes[0].island, "i1");
  EXPECT_EQ(c.nodes[3].island, "i2");
  EXPECT_EQ(c.partitions[0].placement.island_placement, IslandPlacement::kRequire);
  EXPECT_EQ(c.partitions[1].placement.allocation_unit, AllocationUnit::kSocket);
  EXPECT_FALSE(c.partitions[1].placement.socket_exclusive_gpus);
  EXPECT_EQ(c.partitions[1].placement.island_placement, IslandPlacement::kAny);
  EXPECT_EQ(c.partitions[2].placement.allocation_unit, AllocationUnit::kNode);
  EXPECT_EQ(to_string(AllocationUnit::kSocket), "socket");
  EXPECT_EQ(to_string(IslandPlacement::kRequire), "require");
}

TEST(ConfigPlacementErrors, BadValuesNameKeyAndValue) {
  const std::string unit =
      parse_error(std::string(kNode) + "[[partitions]]\nname = \"p\"\nallocation_unit = \"board\"\n");
  EXPECT_CONTAINS(unit, "partitions[0].allocation_unit");
  EXPECT_CONTAINS(unit, "'board'");
  const std::string islands =
      parse_error(std::string(kNode) + "[[partitions]]\nname = \"p\"\nisland_placement = \"always\"\n");
  EXPECT_CONTAINS(islands, "partitions[0].island_placement");
  EXPECT_CONTAINS(islands, "'always'");
  const std::string fence =
      parse_error(std::string(kNode) + "[[partitions]]\nname = \"p\"\nsocket_exclusive_gpus = 1\n");
  EXPECT_CONTAINS(fence, "partitions[0].socket_exclusive_gpus");
  const std::string island =
      parse_error("[[nodes]]\nnames = \"cn1\"\ncores_per_socket = 4\nisland = \"has space\"\n");
  EXPECT_CONTAINS(island, "nodes[0].island");
  EXPECT_CONTAINS(island, "'has space'");
}

TEST(ConfigPlacementErrors, RequiringIslandsOnNodesWithoutThemIsAnError) {
  const std::string e =
      parse_error(std::string(kNode) + "[[partitions]]\nname = \"p\"\nisland_placement = \"require\"\n");
  EXPECT_CONTAINS(e, "partitions[0].island_placement");
  EXPECT_CONTAINS(e, "none of partition 'p''s nodes has an island");
}

}  // namespace
}  // namespace fairway
