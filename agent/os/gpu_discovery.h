// Finds the node's GPUs in a loaded hwloc topology: one GPU per PCI device that carries GPU
// or co-processor OS devices, with its identity and the socket it is local to. Stateless.
#pragma once

#include <hwloc.h>

#include <cstdint>
#include <vector>

#include "agent/os/topology_discovery.h"

namespace fairway::agent {

struct LocatedGpu {
  GpuIdentity identity;
  std::int32_t socket = 0;  // package logical index whose cpuset covers the GPU's locality
};

// In PCI bus order (GPUs hwloc shows outside PCI last, by OS device name).
std::vector<LocatedGpu> read_gpus(hwloc_topology_t topology);

}  // namespace fairway::agent
