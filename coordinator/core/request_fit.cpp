#include "coordinator/core/request_fit.h"

#include <algorithm>
#include <limits>
#include <set>

namespace fairway {

bool can_ever_fit(const ClusterState& cluster, PartitionIndex partition, const ResourceRequest& r) {
  const PartitionState& p = cluster.partition(partition);
  if (r.cores < 0 || r.gpus < 0 || r.nodes < 0) return false;
  auto matching = [&](const NodeShape& s) {
    return static_cast<std::int64_t>(
        std::count_if(s.gpu_types.begin(), s.gpu_types.end(),
                      [&](const std::string& type) { return r.gpu_type.empty() || type == r.gpu_type; }));
  };
  std::int64_t suitable_nodes = 0;
  std::int64_t gpus = 0;
  std::int64_t cores = 0;  // that memory lets a spread request use
  for (const NodeShape& s : p.shapes) {
    const std::int64_t g = matching(s);
    gpus += g * s.count;
    if (s.cores >= r.cores && g >= r.gpus && s.memory_mb >= r.memory_on_node(r.cores))
      suitable_nodes += s.count;
    std::int64_t usable = s.cores;
    if (r.memory_per_node_mb > 0 && s.memory_mb < r.memory_per_node_mb) usable = 0;
    if (r.memory_per_cpu_mb > 0) usable = std::min(usable, s.memory_mb / r.memory_per_cpu_mb);
    cores += usable * s.count;
  }
  if (r.nodes > 0) return suitable_nodes >= r.nodes;
  return cores >= r.cores && gpus >= r.gpus;
}

std::string describe_memory_request(const ResourceRequest& r) {
  if (r.memory_per_node_mb > 0)
    return " with " + std::to_string(r.memory_per_node_mb) + " MiB of memory per node";
  if (r.memory_per_cpu_mb > 0)
    return " with " + std::to_string(r.memory_per_cpu_mb) + " MiB of memory per core";
  return {};
}

std::string describe_node_memory(const PartitionState& p) {
  std::int64_t largest = 0;
  for (const NodeShape& s : p.shapes) {
    if (s.memory_mb < kUntrackedMemoryMb) largest = std::max(largest, s.memory_mb);
  }
  if (largest == 0) return {};
  return ", the largest node " + std::to_string(largest) + " MiB of memory";
}

std::optional<std::string> unknown_gpu_type(const PartitionState& p, const std::string& type) {
  if (type.empty()) return std::nullopt;
  std::set<std::string> types;
  for (const NodeShape& s : p.shapes) types.insert(s.gpu_types.begin(), s.gpu_types.end());
  if (types.contains(type)) return std::nullopt;
  if (types.empty()) return "it has no GPUs";
  std::string list;
  for (const std::string& t : types) list += (list.empty() ? "" : ", ") + t;
  return "types: " + list;
}

ResourceRequest whole_node_request(const PartitionState& p, const ResourceRequest& r) {
  ResourceRequest w = r;
  const std::int32_t node_cores = p.largest_node_cores;
  if (node_cores <= 0) return w;
  if (r.nodes == 0) {
    auto ceil_div = [](std::int32_t a, std::int32_t b) { return (a + b - 1) / b; };
    std::int32_t nodes = ceil_div(r.cores, node_cores);
    if (r.gpus > 0 && p.largest_node_gpus > 0) nodes = std::max(nodes, ceil_div(r.gpus, p.largest_node_gpus));
    w.nodes = std::max(nodes, 1);
    w.gpus = r.gpus > 0 ? ceil_div(r.gpus, w.nodes) : 0;
  }
  w.cores = node_cores;
  return w;
}

ResourceAmount expected_footprint(const ClusterState& cluster, PartitionIndex partition,
                                  const ResourceRequest& r) {
  const PartitionState& p = cluster.partition(partition);
  const ResourceAmount asked = requested_amount(r);
  const bool sockets = p.placement.allocation_unit == AllocationUnit::kSocket;
  if (!sockets && r.gpus == 0) return asked;
  // The smallest socket, and over sockets holding a matching GPU: the fewest cores and
  // GPUs, and the most matching GPUs, over the partition's nodes (one shape: exact).
  constexpr std::int32_t kNone = std::numeric_limits<std::int32_t>::max();
  std::int32_t min_socket = kNone;
  std::int32_t min_gpu_socket_cores = kNone;
  std::int32_t min_gpu_socket_gpus = kNone;
  std::int32_t max_matching = 0;
  bool all_fenced = true;
  for (NodeIndex n : p.nodes) {
    const NodeState& ns = cluster.node(n);
    const auto& t = ns.topology;
    for (std::size_t s = 0; s < t.sockets.size(); ++s) {
      min_socket = std::min(min_socket, t.sockets[s].cores);
      std::int32_t all = 0;
      std::int32_t matching = 0;
      for (const GpuDevice& g : t.gpus) {
        if (static_cast<std::size_t>(g.socket) != s) continue;
        ++all;
        matching += r.gpu_type.empty() || g.type == r.gpu_type ? 1 : 0;
      }
      if (matching == 0) continue;
      if (!ns.socket_exclusive) all_fenced = false;
      min_gpu_socket_cores = std::min(min_gpu_socket_cores, t.sockets[s].cores);
      min_gpu_socket_gpus = std::min(min_gpu_socket_gpus, all);
      max_matching = std::max(max_matching, matching);
    }
  }
  const std::int64_t per_node_cores = r.cores;
  const std::int64_t per_node_gpus = r.gpus;
  std::int64_t cores = per_node_cores;
  std::int64_t gpus = per_node_gpus;
  if (r.gpus > 0 && all_fenced && max_matching > 0) {
    const std::int64_t socket_count = (per_node_gpus + max_matching - 1) / max_matching;
    cores = std::max(cores, socket_count * min_gpu_socket_cores);
    gpus = std::max(gpus, socket_count * min_gpu_socket_gpus);
  }
  if (sockets && min_socket != kNone) cores = (cores + min_socket - 1) / min_socket * min_socket;
  const std::int64_t nodes = r.nodes > 0 ? r.nodes : 1;
  return {cores * nodes, gpus * nodes, r.memory_on_node(cores) * nodes};
}

}  // namespace fairway
