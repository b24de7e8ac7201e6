// Discovers the node's hardware (sockets, cores, SMT PUs, GPUs, memory) with hwloc, from the
// host or from an hwloc XML export, as the NodeTopology the agent reports. Thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shared/base/result.h"
#include "shared/model/topology.h"

namespace fairway::agent {

struct GpuIdentity {
  std::string vendor;      // "NVIDIA", "AMD", "Intel"; another vendor as hwloc/PCI spells it
  std::string model;       // full model name, e.g. "Tesla V100-SXM2-16GB"; may be empty
  std::string pci_bus_id;  // "0000:04:00.0"; empty for a GPU hwloc shows outside PCI
  // What CUDA_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES should name: the backend index
  // (cuda0 -> "0", nvml0 -> "0", rsmi1 -> "1"); else the GPU's ordinal among its vendor's.
  std::string visible_id;
};

struct DiscoveredNode {
  NodeTopology topology;                   // logical numbering as in topology.h
  std::vector<std::vector<int>> core_pus;  // per node-local core index: OS indices of its PUs
  std::vector<GpuIdentity> gpus;           // parallel to topology.gpus, in PCI bus order
  std::int32_t numa_nodes = 0;
};

// `name` overrides the node name (default: the host name hwloc reports, else "localhost").
Result<DiscoveredNode> discover_host(const std::string& name = {});
// Errors (kInvalidArgument) name `path`: missing, unreadable, empty, rejected by hwloc, no
// cores, a core with no PU.
Result<DiscoveredNode> discover_from_xml(const std::string& path, const std::string& name = {});

// The GPU type tag used in job requests: the lower-case family from the model name
// ("Tesla V100-SXM2-16GB" -> "v100", "Radeon Instinct MI50" -> "mi50"); a model with no
// known family -> the lower-cased model with spaces turned into '-'.
std::string gpu_type_tag(std::string_view model);

}  // namespace fairway::agent
