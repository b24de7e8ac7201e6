// Finds the node's GPUs in a loaded hwloc topology: one GPU per PCI device that carries GPU
// or co-processor OS devices, with its identity and the socket it is local to. Stateless.
#pragma once

#include <hwloc.h>

#include <cstdint>
#include <string>
#include <vector>

#include "agent/core/cgroup_plan.h"
#include "agent/os/topology_discovery.h"

namespace fairway::agent {

struct LocatedGpu {
  GpuIdentity identity;
  std::int32_t socket = 0;  // package logical index whose cpuset covers the GPU's locality
};

// In PCI bus order (GPUs hwloc shows outside PCI last, by OS device name).
std::vector<LocatedGpu> read_gpus(hwloc_topology_t topology);

// The character devices through which a job reaches this GPU, for its cgroup's device
// rules: NVIDIA's /dev/nvidiaN (195:N, N from /proc/driver/nvidia), and the DRM card and
// render nodes sysfs lists under its PCI device (AMD, Intel). Empty when none is found:
// the GPU is then guarded by CUDA_VISIBLE_DEVICES alone. `sysfs` and `procfs` are for tests.
std::vector<DeviceNumber> gpu_device_numbers(const GpuIdentity& gpu, const std::string& sysfs = "/sys",
                                             const std::string& procfs = "/proc");

}  // namespace fairway::agent
