#include "agent/os/cpu_layout.h"

#include <gtest/gtest.h>

#include <string>

#include "agent/os/hwloc_topology.h"
#include "agent/os/topology_discovery.h"
#include "tests/agent/os/topology_paths.h"

namespace fairway::agent {
namespace {

Result<CpuLayout> layout_of(const std::string& path) {
  auto topology = HwlocTopology::load_xml(path);
  if (!topology) return std::unexpected(topology.error());
  return read_cpu_layout(topology->get(), topology->source());
}

TEST(CpuLayout, MachineWithoutPackageIsOneSocket) {
  auto layout = layout_of(testing::fixture_topology("no-package-rsmi.xml"));
  ASSERT_TRUE(layout.has_value()) << layout.error().message;
  ASSERT_EQ(layout->sockets.size(), 1u);
  EXPECT_EQ(layout->sockets[0].cores, 4);
  EXPECT_EQ(layout->sockets[0].threads_per_core, 2);
  EXPECT_EQ(layout->numa_nodes, 1);
  EXPECT_EQ(layout->memory_mb, 16384);
  // SMT siblings are PUs of one core even when their OS numbers are far apart.
  ASSERT_EQ(layout->core_pus.size(), 4u);
  EXPECT_EQ(layout->core_pus[0], (std::vector<int>{0, 4}));
  EXPECT_EQ(layout->core_pus[3], (std::vector<int>{3, 7}));
}

TEST(CpuLayout, MixedSmtWidthTakesTheMinimumButKeepsEveryPu) {
  auto layout = layout_of(testing::fixture_topology("mixed-smt-machine-gpu.xml"));
  ASSERT_TRUE(layout.has_value()) << layout.error().message;
  ASSERT_EQ(layout->sockets.size(), 2u);
  EXPECT_EQ(layout->sockets[0].cores, 2);
  EXPECT_EQ(layout->sockets[0].threads_per_core, 1);  // cores of 2 and 1 PUs
  EXPECT_EQ(layout->sockets[1].cores, 2);
  EXPECT_EQ(layout->sockets[1].threads_per_core, 2);
  ASSERT_EQ(layout->core_pus.size(), 4u);
  EXPECT_EQ(layout->core_pus[0], (std::vector<int>{0, 1}));
  EXPECT_EQ(layout->core_pus[1], (std::vector<int>{2}));
  EXPECT_EQ(layout->core_pus[2], (std::vector<int>{3, 4}));
  EXPECT_EQ(layout->core_pus[3], (std::vector<int>{5, 6}));
}

TEST(CpuLayout, TopologyWithoutCoresIsAnErrorNamingTheFile) {
  const std::string path = testing::fixture_topology("no-cores.xml");
  auto node = discover_from_xml(path);
  ASSERT_FALSE(node.has_value());
  EXPECT_EQ(node.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(node.error().message.find(path), std::string::npos) << node.error().message;
  EXPECT_NE(node.error().message.find("no cores"), std::string::npos) << node.error().message;
}

TEST(CpuLayout, CoreWithoutPuIsAnErrorNamingTheFileAndCore) {
  const std::string path = testing::fixture_topology("core-without-pu.xml");
  auto node = discover_from_xml(path);
  ASSERT_FALSE(node.has_value());
  EXPECT_EQ(node.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(node.error().message.find(path), std::string::npos) << node.error().message;
  EXPECT_NE(node.error().message.find("core L#1 (P#1) has no PU"), std::string::npos) << node.error().message;
}

}  // namespace
}  // namespace fairway::agent
