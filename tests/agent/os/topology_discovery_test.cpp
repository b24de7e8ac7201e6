#include "agent/os/topology_discovery.h"

#include <gtest/gtest.h>
#include <hwloc.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "tests/agent/os/topology_paths.h"

namespace fairway::agent {
namespace {

using testing::fixture_topology;
using testing::shared_topology;

DiscoveredNode load(const std::string& path) {
  auto node = discover_from_xml(path);
  EXPECT_TRUE(node.has_value()) << (node ? "" : node.error().message);
  return node ? *node : DiscoveredNode{};
}

std::int32_t total_pus(const DiscoveredNode& node) {
  std::int32_t n = 0;
  for (const auto& pus : node.core_pus) n += static_cast<std::int32_t>(pus.size());
  return n;
}

// Every core's PU list is non-empty and every OS index appears exactly once node-wide.
void expect_pus_partitioned(const DiscoveredNode& node) {
  std::set<int> seen;
  for (const auto& pus : node.core_pus) {
    EXPECT_FALSE(pus.empty());
    for (int pu : pus) EXPECT_TRUE(seen.insert(pu).second) << "PU " << pu << " listed twice";
  }
}

// --- The shared real machines: counts from ../shared/topologies/README.md ---

TEST(SharedTopologies, Power8HasFourNvidiaGpusTwoPerPackage) {
  DiscoveredNode node = load(shared_topology("power8gpudistances.xml"));
  ASSERT_EQ(node.topology.sockets.size(), 2u);
  EXPECT_EQ(node.topology.total_cores(), 8);
  EXPECT_EQ(node.topology.sockets[0].cores, 4);
  EXPECT_EQ(node.topology.sockets[1].cores, 4);
  EXPECT_EQ(node.topology.sockets[0].threads_per_core, 2);
  EXPECT_EQ(total_pus(node), 16);
  EXPECT_EQ(node.numa_nodes, 2);
  expect_pus_partitioned(node);

  // cuda + opencl + nvml on one PCI device are one GPU.
  ASSERT_EQ(node.topology.total_gpus(), 4);
  ASSERT_EQ(node.gpus.size(), 4u);
  const std::int32_t sockets[] = {0, 0, 1, 1};
  const char* bus_ids[] = {"0002:01:00.0", "0003:01:00.0", "000a:01:00.0", "000b:01:00.0"};
  for (std::size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE("GPU " + std::to_string(i));
    EXPECT_EQ(node.topology.gpus[i].socket, sockets[i]);
    EXPECT_EQ(node.topology.gpus[i].type, "p100");
    EXPECT_EQ(node.gpus[i].vendor, "NVIDIA");
    EXPECT_EQ(node.gpus[i].model, "Tesla P100-SXM2-16GB");
    EXPECT_EQ(node.gpus[i].pci_bus_id, bus_ids[i]);
    EXPECT_EQ(node.gpus[i].visible_id, std::to_string(i));
  }
  EXPECT_EQ(node.topology.name, "drac-12.grenoble.grid5000.fr");
  // 2 NUMA nodes of 68556816384 and 68450713600 bytes.
  EXPECT_EQ(node.topology.memory_mb, (68556816384LL + 68450713600LL) >> 20);
}

TEST(SharedTopologies, Intel32HasNvidiaAndAmdGpuOnPackageOne) {
  DiscoveredNode node = load(shared_topology("32em64t-2n8c2t-pci-normalio.xml"));
  ASSERT_EQ(node.topology.sockets.size(), 2u);
  EXPECT_EQ(node.topology.total_cores(), 16);
  EXPECT_EQ(node.topology.sockets[0].threads_per_core, 2);
  EXPECT_EQ(node.topology.sockets[1].threads_per_core, 2);
  EXPECT_EQ(total_pus(node), 32);
  EXPECT_EQ(node.numa_nodes, 2);
  EXPECT_EQ(node.topology.name, "conan");
  EXPECT_EQ(node.topology.memory_mb, (34330173440LL + 34359738368LL) >> 20);

  // The two Tesla M2075 PCI devices carry no OS device and are not usable GPUs.
  ASSERT_EQ(node.topology.total_gpus(), 2);
  // cuda0 + card0 on 0000:84:00.0 are one GPU.
  EXPECT_EQ(node.gpus[0].pci_bus_id, "0000:84:00.0");
  EXPECT_EQ(node.gpus[0].vendor, "NVIDIA");
  EXPECT_EQ(node.gpus[0].model, "Tesla K40m");
  EXPECT_EQ(node.gpus[0].visible_id, "0");
  EXPECT_EQ(node.topology.gpus[0].socket, 1);
  EXPECT_EQ(node.topology.gpus[0].type, "k40m");
  // opencl0d1 is the only OS device of the AMD card: no CUDA/ROCm index, so the ordinal
  // among AMD GPUs.
  EXPECT_EQ(node.gpus[1].pci_bus_id, "0000:84:00.1");
  EXPECT_EQ(node.gpus[1].vendor, "AMD");
  EXPECT_EQ(node.gpus[1].model, "AMD Radeon R9 200 / HD 7900 Series");
  EXPECT_EQ(node.gpus[1].visible_id, "0");
  EXPECT_EQ(node.topology.gpus[1].socket, 1);
}

TEST(SharedTopologies, Intel24HasNoGpus) {
  DiscoveredNode node = load(shared_topology("24em64t-2n6c2t-pci.xml"));
  ASSERT_EQ(node.topology.sockets.size(), 2u);
  EXPECT_EQ(node.topology.sockets[0].cores, 6);
  EXPECT_EQ(node.topology.sockets[1].cores, 6);
  EXPECT_EQ(node.topology.sockets[0].threads_per_core, 2);
  EXPECT_EQ(total_pus(node), 24);
  EXPECT_EQ(node.numa_nodes, 2);
  EXPECT_EQ(node.topology.total_gpus(), 0);
  EXPECT_TRUE(node.gpus.empty());
  expect_pus_partitioned(node);
}

TEST(SharedTopologies, Intel32CorePusAreSmtPairsCoveringEveryPuOnce) {
  DiscoveredNode node = load(shared_topology("32em64t-2n8c2t-pci-normalio.xml"));
  ASSERT_EQ(node.core_pus.size(), 16u);
  std::set<int> all;
  for (const auto& pus : node.core_pus) {
    ASSERT_EQ(pus.size(), 2u);
    EXPECT_NE(pus[0], pus[1]);
    all.insert(pus.begin(), pus.end());
  }
  EXPECT_EQ(all.size(), 32u);
  EXPECT_EQ(*all.begin(), 0);
  EXPECT_EQ(*all.rbegin(), 31);
  // Package 0's cpuset is 0x00ff00ff: its first core holds PUs 0 and 16 (SMT siblings),
  // and socket 1's first core (node-local core 8) starts at PU 8.
  EXPECT_EQ(node.core_pus[0], (std::vector<int>{0, 16}));
  EXPECT_EQ(node.core_pus[8], (std::vector<int>{8, 24}));
}

TEST(SharedTopologies, EveryFileInTheFolderLoadsWithTheReadmeCounts) {
  struct Expected {
    int packages, cores, pus, numa, gpus;
  };
  // The table of ../shared/topologies/README.md.
  const std::map<std::string, Expected> readme = {
      {"power8gpudistances.xml", {2, 8, 16, 2, 4}},
      {"32em64t-2n8c2t-pci-normalio.xml", {2, 16, 32, 2, 2}},
      {"24em64t-2n6c2t-pci.xml", {2, 12, 24, 2, 0}},
  };
  std::set<std::string> seen;
  for (const auto& entry : std::filesystem::directory_iterator(shared_topology(""))) {
    if (entry.path().extension() != ".xml") continue;
    const std::string file = entry.path().filename().string();
    SCOPED_TRACE(file);
    auto node = discover_from_xml(entry.path().string());
    ASSERT_TRUE(node.has_value()) << node.error().message;
    seen.insert(file);
    auto it = readme.find(file);
    if (it == readme.end()) continue;  // a machine added later: loading is the check
    EXPECT_EQ(static_cast<int>(node->topology.sockets.size()), it->second.packages);
    EXPECT_EQ(node->topology.total_cores(), it->second.cores);
    EXPECT_EQ(total_pus(*node), it->second.pus);
    EXPECT_EQ(node->numa_nodes, it->second.numa);
    EXPECT_EQ(node->topology.total_gpus(), it->second.gpus);
  }
  for (const auto& [file, expected] : readme) EXPECT_TRUE(seen.contains(file)) << file;
}

// --- Hand-written Kebnekaise V100 node ---

TEST(KebnekaiseFixture, TwoV100OnePerSocket) {
  DiscoveredNode node = load(fixture_topology("kebnekaise-v100.xml"));
  ASSERT_EQ(node.topology.sockets.size(), 2u);
  EXPECT_EQ(node.topology.total_cores(), 28);
  EXPECT_EQ(node.topology.sockets[0].cores, 14);
  EXPECT_EQ(node.topology.sockets[0].threads_per_core, 1);
  EXPECT_EQ(node.numa_nodes, 2);
  EXPECT_EQ(node.topology.memory_mb, 2 * 98304);
  EXPECT_EQ(node.topology.name, "b-cn1501");

  ASSERT_EQ(node.topology.total_gpus(), 2);
  EXPECT_EQ(node.topology.gpus[0].type, "v100");
  EXPECT_EQ(node.topology.gpus[1].type, "v100");
  EXPECT_EQ(node.topology.gpus[0].socket, 0);
  EXPECT_EQ(node.topology.gpus[1].socket, 1);
  EXPECT_EQ(node.gpus[0].visible_id, "0");
  EXPECT_EQ(node.gpus[1].visible_id, "1");
  EXPECT_EQ(node.gpus[0].model, "Tesla V100-PCIE-16GB");
  EXPECT_EQ(node.gpus[0].pci_bus_id, "0000:3b:00.0");
  EXPECT_EQ(node.gpus[1].pci_bus_id, "0000:d8:00.0");
  // Cores are numbered socket by socket: core 14 is the first of socket 1.
  EXPECT_EQ(node.topology.socket_of_core(14), 1);
  EXPECT_EQ(node.core_pus[14], (std::vector<int>{14}));
}

TEST(KebnekaiseFixture, NameArgumentOverridesHostName) {
  auto node = discover_from_xml(fixture_topology("kebnekaise-v100.xml"), "kebnekaise-g01");
  ASSERT_TRUE(node.has_value()) << node.error().message;
  EXPECT_EQ(node->topology.name, "kebnekaise-g01");
}

TEST(H100VmFixture, OneSocketSixteenCoresOneH100) {
  DiscoveredNode node = load(fixture_topology("h100-vm-opencl.xml"));
  ASSERT_EQ(node.topology.sockets.size(), 1u);
  EXPECT_EQ(node.topology.total_cores(), 16);
  EXPECT_EQ(node.topology.sockets[0].threads_per_core, 1);
  ASSERT_EQ(node.topology.total_gpus(), 1);
  EXPECT_EQ(node.topology.gpus[0].type, "h100");
  EXPECT_EQ(node.topology.gpus[0].socket, 0);
}

// --- The host ---

struct HostTopology {
  hwloc_topology_t topology = nullptr;
  HostTopology() {
    hwloc_topology_init(&topology);
    hwloc_topology_load(topology);
  }
  ~HostTopology() { hwloc_topology_destroy(topology); }
  HostTopology(const HostTopology&) = delete;
  HostTopology& operator=(const HostTopology&) = delete;
};

// The kernel's list of present CPUs ("0-15" or "0,2-5"), independent of hwloc.
std::set<int> present_cpus_in_sysfs() {
  std::ifstream in("/sys/devices/system/cpu/present");
  std::string list;
  std::set<int> cpus;
  if (!(in >> list)) return cpus;
  std::size_t pos = 0;
  while (pos < list.size()) {
    const std::size_t comma = std::min(list.find(',', pos), list.size());
    const std::string range = list.substr(pos, comma - pos);
    const std::size_t dash = range.find('-');
    const int first = std::stoi(range.substr(0, dash));
    const int last = dash == std::string::npos ? first : std::stoi(range.substr(dash + 1));
    for (int c = first; c <= last; ++c) cpus.insert(c);
    pos = comma + 1;
  }
  return cpus;
}

TEST(HostDiscovery, MatchesAnIndependentHwlocLoad) {
  auto node = discover_host();
  ASSERT_TRUE(node.has_value()) << node.error().message;
  HostTopology reference;
  EXPECT_EQ(node->topology.total_cores(), hwloc_get_nbobjs_by_type(reference.topology, HWLOC_OBJ_CORE));
  EXPECT_EQ(total_pus(*node), hwloc_get_nbobjs_by_type(reference.topology, HWLOC_OBJ_PU));
  EXPECT_EQ(static_cast<int>(node->topology.sockets.size()),
            std::max(1, hwloc_get_nbobjs_by_type(reference.topology, HWLOC_OBJ_PACKAGE)));
  EXPECT_GT(node->topology.memory_mb, 0);
  EXPECT_GE(node->numa_nodes, 1);
  EXPECT_FALSE(node->topology.name.empty());
  expect_pus_partitioned(*node);
  // A cgroup may hide CPUs from hwloc, never add them: every PU is a present CPU.
  const std::set<int> present = present_cpus_in_sysfs();
  ASSERT_FALSE(present.empty());
  EXPECT_LE(total_pus(*node), static_cast<int>(present.size()));
  for (const auto& pus : node->core_pus) {
    for (int pu : pus) EXPECT_TRUE(present.contains(pu)) << "PU " << pu << " is not present";
  }
  EXPECT_EQ(node->gpus.size(), node->topology.gpus.size());
}

TEST(HostDiscovery, NameArgumentOverridesHostName) {
  auto node = discover_host("compute-17");
  ASSERT_TRUE(node.has_value()) << node.error().message;
  EXPECT_EQ(node->topology.name, "compute-17");
}

}  // namespace
}  // namespace fairway::agent
