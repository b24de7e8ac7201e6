#include "agent/os/gpu_discovery.h"

#include <gtest/gtest.h>

#include <string>

#include "agent/os/hwloc_topology.h"
#include "tests/agent/os/topology_paths.h"

namespace fairway::agent {
namespace {

std::vector<LocatedGpu> gpus_of(const std::string& path) {
  auto topology = HwlocTopology::load_xml(path);
  EXPECT_TRUE(topology.has_value()) << (topology ? "" : topology.error().message);
  return topology ? read_gpus(topology->get()) : std::vector<LocatedGpu>{};
}

TEST(GpuDiscovery, BmcDisplayIsNoGpuAndDrmOnlyDevicesTakeVendorFromPciId) {
  // 01:00.0 ASPEED card0 (a BMC display), 02:00.0 AMD card1 + renderD128 without any
  // info, 03:00.0 AMD card2 + rsmi1.
  std::vector<LocatedGpu> gpus = gpus_of(testing::fixture_topology("no-package-rsmi.xml"));
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[0].identity.pci_bus_id, "0000:02:00.0");
  EXPECT_EQ(gpus[0].identity.vendor, "AMD");
  EXPECT_EQ(gpus[0].identity.model, "");
  EXPECT_EQ(gpus[0].identity.visible_id, "0");  // first AMD GPU, no backend index
  EXPECT_EQ(gpus[0].socket, 0);                 // no package: the only socket
  EXPECT_EQ(gpus[1].identity.pci_bus_id, "0000:03:00.0");
  EXPECT_EQ(gpus[1].identity.vendor, "AMD");
  EXPECT_EQ(gpus[1].identity.model, "AMD Instinct MI100");
  EXPECT_EQ(gpus[1].identity.visible_id, "1");  // rsmi1
  EXPECT_EQ(gpus[1].socket, 0);
}

TEST(GpuDiscovery, GpuAboveThePackagesGoesToSocketZeroAndBackendIndexWins) {
  // 04:00.0 hangs off the machine (local to both packages); 81:00.0 sits in package 1.
  std::vector<LocatedGpu> gpus = gpus_of(testing::fixture_topology("mixed-smt-machine-gpu.xml"));
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[0].identity.pci_bus_id, "0000:04:00.0");
  EXPECT_EQ(gpus[0].identity.model, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(gpus[0].identity.vendor, "NVIDIA");
  EXPECT_EQ(gpus[0].identity.visible_id, "7");  // cuda7, not opencl0d0 or the ordinal
  EXPECT_EQ(gpus[0].socket, 0);
  EXPECT_EQ(gpus[1].identity.pci_bus_id, "0000:81:00.0");
  EXPECT_EQ(gpus[1].identity.model, "NVIDIA A100-SXM4-40GB");
  EXPECT_EQ(gpus[1].identity.visible_id, "3");  // nvml3
  EXPECT_EQ(gpus[1].socket, 1);
}

TEST(GpuDiscovery, NetworkAndStorageDevicesAreNoGpus) {
  // 24em64t has network and storage PCI devices with OS devices, and no GPU.
  EXPECT_TRUE(gpus_of(testing::shared_topology("24em64t-2n6c2t-pci.xml")).empty());
  // Kebnekaise's InfiniBand card sits beside a GPU on package 1.
  std::vector<LocatedGpu> gpus = gpus_of(testing::fixture_topology("kebnekaise-v100.xml"));
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[1].identity.pci_bus_id, "0000:d8:00.0");
}

TEST(GpuDiscovery, SeveralBackendsOnOnePciDeviceAreOneGpu) {
  // power8: cuda, opencl and nvml on each of 4 PCI devices.
  std::vector<LocatedGpu> gpus = gpus_of(testing::shared_topology("power8gpudistances.xml"));
  ASSERT_EQ(gpus.size(), 4u);
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    EXPECT_EQ(gpus[i].identity.visible_id, std::to_string(i));
  }
}

TEST(GpuDiscovery, RealH100VmWithOpenClDeviceOutsideItsPciDevice) {
  // hwloc 2.10 on an H100 VM: opencl1d0 hangs off the host bridge, and the GPU's PCI
  // device 00:06.0 has no OS device. The GPU counts once, with no bus id to report.
  std::vector<LocatedGpu> gpus = gpus_of(testing::fixture_topology("h100-vm-opencl.xml"));
  ASSERT_EQ(gpus.size(), 1u);
  EXPECT_EQ(gpus[0].identity.vendor, "NVIDIA");
  EXPECT_EQ(gpus[0].identity.model, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(gpus[0].identity.pci_bus_id, "");
  EXPECT_EQ(gpus[0].identity.visible_id, "0");
  EXPECT_EQ(gpus[0].socket, 0);
}

}  // namespace
}  // namespace fairway::agent
