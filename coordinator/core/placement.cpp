#include "coordinator/core/placement.h"

#include <algorithm>

namespace fairway {
namespace {

bool gpu_matches(const GpuDevice& g, const std::string& type) {
  return type.empty() || g.type == type;
}

std::int32_t free_matching_gpus(const NodeState& n, const std::string& type) {
  std::int32_t k = 0;
  for (std::size_t g = 0; g < n.gpu_used.size(); ++g) {
    if (!n.gpu_used[g] && gpu_matches(n.topology.gpus[g], type)) ++k;
  }
  return k;
}

// Takes `gpus` matching GPUs and then `cores` cores on node n, cores on the taken GPUs'
// sockets first. The caller checked the node has enough of both.
NodeAllocation take_on_node(const ClusterState& cluster, NodeIndex node, std::int32_t cores,
                            std::int32_t gpus, const std::string& gpu_type) {
  const NodeState& n = cluster.node(node);
  NodeAllocation a;
  a.node = node;
  std::vector<std::uint8_t> preferred_socket(n.topology.sockets.size(), 0);
  for (std::size_t g = 0; g < n.gpu_used.size() && std::ssize(a.gpus) < gpus; ++g) {
    if (n.gpu_used[g] || !gpu_matches(n.topology.gpus[g], gpu_type)) continue;
    a.gpus.push_back(static_cast<std::int32_t>(g));
    preferred_socket[static_cast<std::size_t>(n.topology.gpus[g].socket)] = 1;
  }
  a.cores.reserve(static_cast<std::size_t>(cores));
  std::vector<std::uint8_t> taken(n.core_used);  // used by others, or already given here
  auto take_cores = [&](bool gpu_sockets_only) {
    for (std::size_t c = 0; c < taken.size() && std::ssize(a.cores) < cores; ++c) {
      if (taken[c]) continue;
      if (gpu_sockets_only) {
        const auto socket = n.topology.socket_of_core(static_cast<std::int32_t>(c));
        if (!preferred_socket[static_cast<std::size_t>(socket)]) continue;
      }
      taken[c] = 1;
      a.cores.push_back(static_cast<std::int32_t>(c));
    }
  };
  if (gpus > 0) take_cores(true);
  take_cores(false);
  std::sort(a.cores.begin(), a.cores.end());
  return a;
}

// Nodes with no GPUs first for jobs that ask none, so GPU nodes stay free for GPU work.
template <typename Visit>
bool for_each_in_bucket(const ClusterState& cluster, const std::vector<NodeIndex>& bucket,
                        bool prefer_cpu_only, Visit visit) {
  if (!prefer_cpu_only) {
    for (NodeIndex n : bucket) {
      if (visit(n)) return true;
    }
    return false;
  }
  for (int gpu_nodes = 0; gpu_nodes < 2; ++gpu_nodes) {
    for (NodeIndex n : bucket) {
      if ((cluster.node(n).topology.total_gpus() > 0) != (gpu_nodes == 1)) continue;
      if (visit(n)) return true;
    }
  }
  return false;
}

// N nodes each with `cores` free cores and `gpus` matching free GPUs; best fit first.
std::optional<Allocation> place_per_node(const ClusterState& cluster, const PartitionState& p,
                                         const ResourceRequest& r) {
  Allocation alloc;
  const std::int32_t max_free = p.free_index.max_cores();
  for (std::int32_t f = std::max(r.cores, 0); f <= max_free; ++f) {
    const bool done = for_each_in_bucket(cluster, p.free_index.with_free(f), r.gpus == 0, [&](NodeIndex n) {
      if (r.gpus > 0 && free_matching_gpus(cluster.node(n), r.gpu_type) < r.gpus) return false;
      alloc.nodes.push_back(take_on_node(cluster, n, r.cores, r.gpus, r.gpu_type));
      return std::ssize(alloc.nodes) == r.nodes;
    });
    if (done) return alloc;
  }
  return std::nullopt;
}

// Cores (and GPUs) spread freely: one best-fit node when the request fits on one,
// otherwise the emptiest nodes first so the job touches as few nodes as possible.
std::optional<Allocation> place_spread(const ClusterState& cluster, const PartitionState& p,
                                       const ResourceRequest& r) {
  if (r.gpus == 0) {
    if (p.free.cores < r.cores) return std::nullopt;
    const std::int32_t max_free = p.free_index.max_cores();
    for (std::int32_t f = std::max(r.cores, 1); f <= max_free; ++f) {
      Allocation alloc;
      if (for_each_in_bucket(cluster, p.free_index.with_free(f), true, [&](NodeIndex n) {
            alloc.nodes.push_back(take_on_node(cluster, n, r.cores, 0, {}));
            return true;
          })) {
        return alloc;
      }
    }
    Allocation alloc;
    std::int32_t left = r.cores;
    for (std::int32_t f = max_free; f > 0 && left > 0; --f) {
      for (NodeIndex n : p.free_index.with_free(f)) {
        const std::int32_t take = std::min(left, f);
        alloc.nodes.push_back(take_on_node(cluster, n, take, 0, {}));
        left -= take;
        if (left == 0) break;
      }
    }
    if (left > 0) return std::nullopt;
    return alloc;
  }
  // GPUs spread: nodes with the most matching free GPUs first; cores go with the GPUs,
  // then onto any node with free cores.
  std::vector<std::pair<std::int32_t, NodeIndex>> gpu_nodes;
  for (NodeIndex n : p.nodes) {
    const std::int32_t k = free_matching_gpus(cluster.node(n), r.gpu_type);
    if (k > 0) gpu_nodes.emplace_back(k, n);
  }
  std::sort(gpu_nodes.begin(), gpu_nodes.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  Allocation alloc;
  std::int32_t gpus_left = r.gpus;
  std::int32_t cores_left = r.cores;
  for (const auto& [k, n] : gpu_nodes) {
    if (gpus_left == 0) break;
    const std::int32_t g = std::min(k, gpus_left);
    const std::int32_t c = std::min(cluster.node(n).free_cores, cores_left);
    if (c == 0 && cores_left > 0) continue;  // a GPU with no core to drive it is useless
    alloc.nodes.push_back(take_on_node(cluster, n, c, g, r.gpu_type));
    gpus_left -= g;
    cores_left -= c;
  }
  if (gpus_left > 0) return std::nullopt;
  for (NodeIndex n : p.nodes) {
    if (cores_left == 0) break;
    const NodeState& ns = cluster.node(n);
    const bool used = std::any_of(alloc.nodes.begin(), alloc.nodes.end(),
                                  [&](const NodeAllocation& a) { return a.node == n; });
    if (used || ns.free_cores == 0) continue;
    const std::int32_t c = std::min(ns.free_cores, cores_left);
    alloc.nodes.push_back(take_on_node(cluster, n, c, 0, {}));
    cores_left -= c;
  }
  if (cores_left > 0) return std::nullopt;
  return alloc;
}

}  // namespace

std::optional<Allocation> place_job(const ClusterState& cluster, PartitionIndex partition,
                                    const ResourceRequest& request) {
  const PartitionState& p = cluster.partition(partition);
  if (!p.free.covers({request.total_cores(), request.total_gpus()})) return std::nullopt;
  if (request.nodes > 0) return place_per_node(cluster, p, request);
  return place_spread(cluster, p, request);
}

std::optional<Allocation> place_on_nodes(const ClusterState& cluster, const ResourceRequest& r,
                                         std::span<const NodeIndex> nodes) {
  Allocation alloc;
  for (NodeIndex n : nodes) {
    const NodeState& ns = cluster.node(n);
    if (ns.free_cores < r.cores || free_matching_gpus(ns, r.gpu_type) < r.gpus) return std::nullopt;
    alloc.nodes.push_back(take_on_node(cluster, n, r.cores, r.gpus, r.gpu_type));
  }
  return alloc;
}

bool can_ever_fit(const ClusterState& cluster, PartitionIndex partition,
                  const ResourceRequest& r) {
  const PartitionState& p = cluster.partition(partition);
  if (r.cores < 0 || r.gpus < 0 || r.nodes < 0) return false;
  auto matching = [&](const NodeShape& s) {
    return static_cast<std::int64_t>(std::count_if(
        s.gpu_types.begin(), s.gpu_types.end(),
        [&](const std::string& type) { return r.gpu_type.empty() || type == r.gpu_type; }));
  };
  std::int64_t suitable_nodes = 0;
  std::int64_t gpus = 0;
  for (const NodeShape& s : p.shapes) {
    const std::int64_t g = matching(s);
    gpus += g * s.count;
    if (s.cores >= r.cores && g >= r.gpus) suitable_nodes += s.count;
  }
  if (r.nodes > 0) return suitable_nodes >= r.nodes;
  return p.capacity.cores >= r.cores && gpus >= r.gpus;
}

}  // namespace fairway
