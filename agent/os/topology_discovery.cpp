#include "agent/os/topology_discovery.h"

#include <utility>

#include "agent/os/cpu_layout.h"
#include "agent/os/gpu_discovery.h"
#include "agent/os/hwloc_topology.h"
#include "shared/base/try.h"

namespace fairway::agent {
namespace {

std::string node_name(hwloc_topology_t topology, const std::string& requested) {
  if (!requested.empty()) return requested;
  const char* host = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topology), "HostName");
  if (host != nullptr && *host != '\0') return host;
  return "localhost";
}

Result<DiscoveredNode> describe(const HwlocTopology& loaded, const std::string& name) {
  FAIRWAY_TRY_ASSIGN(cpus, read_cpu_layout(loaded.get(), loaded.source()));
  DiscoveredNode node;
  node.topology.name = node_name(loaded.get(), name);
  node.topology.sockets = std::move(cpus.sockets);
  node.topology.memory_mb = cpus.memory_mb;
  node.core_pus = std::move(cpus.core_pus);
  node.numa_nodes = cpus.numa_nodes;
  for (LocatedGpu& gpu : read_gpus(loaded.get())) {
    node.topology.gpus.push_back({gpu_type_tag(gpu.identity.model), gpu.socket});
    node.gpus.push_back(std::move(gpu.identity));
  }
  return node;
}

}  // namespace

Result<DiscoveredNode> discover_host(const std::string& name) {
  FAIRWAY_TRY_ASSIGN(loaded, HwlocTopology::load_host());
  return describe(loaded, name);
}

Result<DiscoveredNode> discover_from_xml(const std::string& path, const std::string& name) {
  FAIRWAY_TRY_ASSIGN(loaded, HwlocTopology::load_xml(path));
  return describe(loaded, name);
}

}  // namespace fairway::agent
