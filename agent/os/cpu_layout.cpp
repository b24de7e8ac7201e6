#include "agent/os/cpu_layout.h"

#include <algorithm>

#include "shared/base/try.h"

namespace fairway::agent {
namespace {

std::vector<int> pu_os_indices(hwloc_topology_t topology, hwloc_obj_t core) {
  std::vector<int> pus;
  hwloc_obj_t pu = nullptr;
  while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(topology, core->cpuset, HWLOC_OBJ_PU, pu)) !=
         nullptr) {
    pus.push_back(static_cast<int>(pu->os_index));
  }
  return pus;
}

// Appends the cores inside `cpuset` as one socket. Returns the number of cores taken.
Result<std::int32_t> add_socket(hwloc_topology_t topology, hwloc_const_cpuset_t cpuset,
                                const std::string& where, CpuLayout& layout) {
  std::int32_t cores = 0;
  std::int32_t min_pus = 0;
  hwloc_obj_t core = nullptr;
  while ((core = hwloc_get_next_obj_inside_cpuset_by_type(topology, cpuset, HWLOC_OBJ_CORE, core)) !=
         nullptr) {
    std::vector<int> pus = pu_os_indices(topology, core);
    if (pus.empty()) {
      return invalid_argument(where + ": core L#" + std::to_string(core->logical_index) + " (P#" +
                              std::to_string(core->os_index) + ") has no PU");
    }
    const auto n = static_cast<std::int32_t>(pus.size());
    min_pus = cores == 0 ? n : std::min(min_pus, n);
    layout.core_pus.push_back(std::move(pus));
    ++cores;
  }
  // SocketTopology holds one SMT width per socket. With mixed widths (hybrid CPUs, or SMT
  // disabled on some cores) the minimum is the width every core can honour; core_pus
  // still lists each core's real PUs for binding.
  layout.sockets.push_back({cores, std::max<std::int32_t>(min_pus, 1)});
  return cores;
}

std::int64_t total_numa_memory_mb(hwloc_topology_t topology) {
  std::uint64_t bytes = 0;
  hwloc_obj_t numa = nullptr;
  while ((numa = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, numa)) != nullptr) {
    bytes += numa->attr->numanode.local_memory;
  }
  return static_cast<std::int64_t>(bytes >> 20);
}

}  // namespace

Result<CpuLayout> read_cpu_layout(hwloc_topology_t topology, const std::string& source) {
  CpuLayout layout;
  const int total_cores = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE);
  if (total_cores <= 0) return invalid_argument(source + ": topology has no cores");

  const int packages = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PACKAGE);
  std::int32_t placed = 0;
  if (packages <= 0) {
    // Some virtual machines and odd firmware expose no package: one socket holds all.
    FAIRWAY_TRY_ASSIGN(taken, add_socket(topology, hwloc_get_root_obj(topology)->cpuset, source, layout));
    placed = taken;
  } else {
    for (int p = 0; p < packages; ++p) {
      hwloc_obj_t package = hwloc_get_obj_by_type(topology, HWLOC_OBJ_PACKAGE, static_cast<unsigned>(p));
      FAIRWAY_TRY_ASSIGN(
          taken, add_socket(topology, package->cpuset, source + ": package L#" + std::to_string(p), layout));
      placed += taken;
    }
  }
  if (placed != total_cores) {
    return invalid_argument(source + ": " + std::to_string(total_cores - placed) + " of " +
                            std::to_string(total_cores) + " cores lie outside every package");
  }
  layout.memory_mb = total_numa_memory_mb(topology);
  layout.numa_nodes = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE);
  return layout;
}

}  // namespace fairway::agent
