// Reads sockets, cores and SMT PUs out of a loaded hwloc topology in Fairway's numbering.
// Stateless functions; safe to call concurrently on one loaded topology.
#pragma once

#include <hwloc.h>

#include <cstdint>
#include <string>
#include <vector>

#include "shared/base/result.h"
#include "shared/model/topology.h"

namespace fairway::agent {

struct CpuLayout {
  std::vector<SocketTopology> sockets;
  // Per node-local core (socket by socket, hwloc logical order inside a socket): the OS
  // indices of its PUs, the numbers sched_setaffinity and FAIRWAY_CPUS speak.
  std::vector<std::vector<int>> core_pus;
  std::int64_t memory_mb = 0;
  std::int32_t numa_nodes = 0;
};

// `source` names the topology (file path or "host") in errors: zero cores, a core with no
// PU, cores outside every package.
Result<CpuLayout> read_cpu_layout(hwloc_topology_t topology, const std::string& source);

}  // namespace fairway::agent
