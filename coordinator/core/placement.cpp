#include "coordinator/core/placement.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace fairway {
namespace {

bool gpu_matches(const GpuDevice& g, const std::string& type) {
  return type.empty() || g.type == type;
}

// GPUs of the type a new job could take now (see NodeState::gpu_usable).
std::int32_t usable_gpus(const NodeState& n, const std::string& type) {
  if (n.free_gpus == 0) return 0;
  std::int32_t k = 0;
  for (std::size_t g = 0; g < n.gpu_used.size(); ++g) {
    if (n.gpu_usable(g) && gpu_matches(n.topology.gpus[g], type)) ++k;
  }
  return k;
}

// Whether node n has the memory the request holds with `cores` cores there.
bool memory_room(const NodeState& n, const ResourceRequest& r, std::int64_t cores) {
  return n.free_memory_mb() >= r.memory_on_node(cores);
}

// How many of `want` cores the node's free memory lets the request take there (0 when a
// --mem request does not fit at all): spread jobs take fewer cores on a node short of it.
std::int32_t cores_memory_allows(const NodeState& n, const ResourceRequest& r, std::int32_t want) {
  if (r.memory_per_node_mb > 0) return memory_room(n, r, want) ? want : 0;
  if (r.memory_per_cpu_mb > 0) {
    const std::int64_t k = std::max<std::int64_t>(n.free_memory_mb(), 0) / r.memory_per_cpu_mb;
    return static_cast<std::int32_t>(std::min<std::int64_t>(want, k));
  }
  return want;
}

// Which nodes a placement may use: all of the partition's, or one island's, and of those
// only the ones the job's -w/-x/-C leave it (`allowed`, when it has any).
struct Scope {
  std::int32_t island = -1;
  const NodeMask* allowed = nullptr;
  // Looks at the node only when restricted: the unrestricted scans stay off node memory.
  bool admits(const ClusterState& c, NodeIndex n) const {
    if (allowed != nullptr && (n.value() >= allowed->size() || !(*allowed)[n.value()])) return false;
    return island < 0 || c.node(n).island == island;
  }
};

// The most GPUs of `type` any node of the scope has, free or not: from the partition's
// few node shapes when the scope is the whole partition.
std::int32_t most_gpus_on_a_node(const ClusterState& cluster, const PartitionState& p, const Scope& scope,
                                 const std::string& type) {
  const auto matching = [&](const std::vector<std::string>& types) {
    return static_cast<std::int32_t>(std::count_if(
        types.begin(), types.end(), [&](const std::string& t) { return type.empty() || t == type; }));
  };
  std::int32_t most = 0;
  if (scope.allowed == nullptr && scope.island < 0) {
    for (const NodeShape& s : p.shapes) most = std::max(most, matching(s.gpu_types));
    return most;
  }
  for (NodeIndex n : p.nodes) {
    if (!scope.admits(cluster, n)) continue;
    std::int32_t total = 0;
    for (const GpuDevice& g : cluster.node(n).topology.gpus) total += gpu_matches(g, type) ? 1 : 0;
    most = std::max(most, total);
  }
  return most;
}

// Takes `gpus` usable matching GPUs and then `cores` free cores on node n, cores on the
// taken GPUs' sockets first. On a socket-exclusive node the other cores come from sockets
// with no usable GPU before sockets whose GPU is still free, so GPUs stay usable.
// The caller checked the node has enough of both.
NodeAllocation take_on_node(const ClusterState& cluster, NodeIndex node, std::int32_t cores,
                            std::int32_t gpus, const std::string& gpu_type) {
  const NodeState& n = cluster.node(node);
  NodeAllocation a;
  a.node = node;
  if (gpus == 0 && !n.socket_exclusive) {
    // No socket to prefer: the lowest free cores, already in order (the common case, and
    // a trace replay's hot path).
    if (std::cmp_equal(n.free_cores, n.core_used.size())) {  // an idle node: the first `cores`
      a.cores.resize(static_cast<std::size_t>(cores));
      std::iota(a.cores.begin(), a.cores.end(), 0);
      return a;
    }
    a.cores.reserve(static_cast<std::size_t>(cores));
    for (std::size_t c = 0; c < n.core_used.size() && std::ssize(a.cores) < cores; ++c) {
      if (!n.core_used[c]) a.cores.push_back(static_cast<std::int32_t>(c));
    }
    return a;
  }
  // Socket rank: 0 the job's GPU sockets, 1 sockets without a usable GPU, 2 the others.
  std::vector<std::uint8_t> rank;
  if (gpus > 0 || n.socket_exclusive) {
    rank.assign(n.topology.sockets.size(), 1);
    if (n.socket_exclusive) {
      for (std::size_t g = 0; g < n.gpu_used.size(); ++g) {
        if (n.gpu_usable(g)) rank[static_cast<std::size_t>(n.topology.gpus[g].socket)] = 2;
      }
    }
  }
  for (std::size_t g = 0; g < n.gpu_used.size() && std::ssize(a.gpus) < gpus; ++g) {
    if (!n.gpu_usable(g) || !gpu_matches(n.topology.gpus[g], gpu_type)) continue;
    a.gpus.push_back(static_cast<std::int32_t>(g));
    rank[static_cast<std::size_t>(n.topology.gpus[g].socket)] = 0;
  }
  a.cores.reserve(static_cast<std::size_t>(cores));
  std::vector<std::uint8_t> taken(n.core_used);  // used by others, or already given here
  if (n.socket_exclusive) {
    for (std::size_t c = 0; c < taken.size(); ++c) taken[c] |= n.core_fenced[c];
  }
  auto take_cores = [&](int max_rank) {
    for (std::size_t c = 0; c < taken.size() && std::ssize(a.cores) < cores; ++c) {
      if (taken[c]) continue;
      if (max_rank < 2 && rank[static_cast<std::size_t>(n.socket_of_core[c])] > max_rank) continue;
      taken[c] = 1;
      a.cores.push_back(static_cast<std::int32_t>(c));
    }
  };
  if (gpus > 0) take_cores(0);
  if (n.socket_exclusive) take_cores(1);
  take_cores(2);
  std::sort(a.cores.begin(), a.cores.end());
  return a;
}

// Nodes with no GPUs first for jobs that ask none, so GPU nodes stay free for GPU work.
template <typename Visit>
bool for_each_in_bucket(const ClusterState& cluster, const std::vector<NodeIndex>& bucket,
                        bool prefer_cpu_only, Scope scope, Visit visit) {
  if (!prefer_cpu_only) {
    for (NodeIndex n : bucket) {
      if (scope.admits(cluster, n) && visit(n)) return true;
    }
    return false;
  }
  for (int gpu_nodes = 0; gpu_nodes < 2; ++gpu_nodes) {
    for (NodeIndex n : bucket) {
      const NodeState& ns = cluster.node(n);
      if ((ns.topology.total_gpus() > 0) != (gpu_nodes == 1) || !scope.admits(cluster, n)) continue;
      if (visit(n)) return true;
    }
  }
  return false;
}

// N nodes each with `cores` free cores and `gpus` usable GPUs; best fit first.
std::optional<Allocation> place_per_node(const ClusterState& cluster, const PartitionState& p,
                                         const ResourceRequest& r, Scope scope) {
  Allocation alloc;
  const std::int32_t max_free = p.free_index.max_cores();
  for (std::int32_t f = std::max(r.cores, 0); f <= max_free; ++f) {
    const bool done =
        for_each_in_bucket(cluster, p.free_index.with_free(f), r.gpus == 0, scope, [&](NodeIndex n) {
          if (r.gpus > 0 && usable_gpus(cluster.node(n), r.gpu_type) < r.gpus) return false;
          if (!memory_room(cluster.node(n), r, r.cores)) return false;
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
                                       const ResourceRequest& r, Scope scope) {
  if (r.gpus == 0) {
    if (p.free.cores < r.cores) return std::nullopt;
    const std::int32_t max_free = p.free_index.max_cores();
    for (std::int32_t f = std::max(r.cores, 1); f <= max_free; ++f) {
      Allocation alloc;
      if (for_each_in_bucket(cluster, p.free_index.with_free(f), true, scope, [&](NodeIndex n) {
            if (!memory_room(cluster.node(n), r, r.cores)) return false;
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
        if (!scope.admits(cluster, n)) continue;
        const std::int32_t take = cores_memory_allows(cluster.node(n), r, std::min(left, f));
        if (take == 0) continue;
        alloc.nodes.push_back(take_on_node(cluster, n, take, 0, {}));
        left -= take;
        if (left == 0) break;
      }
    }
    if (left > 0) return std::nullopt;
    return alloc;
  }
  // GPUs spread: nodes with the most usable matching GPUs first; cores go with the GPUs,
  // then onto any node with free cores.
  std::vector<std::pair<std::int32_t, NodeIndex>> gpu_nodes;
  bool some_node_short = false;
  for (NodeIndex n : p.nodes) {
    if (!scope.admits(cluster, n)) continue;
    const std::int32_t k = usable_gpus(cluster.node(n), r.gpu_type);
    if (k > 0) gpu_nodes.emplace_back(k, n);
    some_node_short = some_node_short || (k > 0 && k < r.gpus);
  }
  // GPUs that one node of the scope could hold come from one node (while none has them
  // free the job waits, and a task's GPUs are never split); only more GPUs than any node
  // has are spread, each node keeping a core for them. Looked at only when a node has
  // fewer free than asked (never for the usual one-GPU job).
  if (some_node_short && r.gpus <= most_gpus_on_a_node(cluster, p, scope, r.gpu_type)) {
    std::erase_if(gpu_nodes, [&](const auto& e) { return e.first < r.gpus; });
  }
  std::stable_sort(gpu_nodes.begin(), gpu_nodes.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  Allocation alloc;
  std::int32_t gpus_left = r.gpus;
  std::int32_t cores_left = r.cores;
  for (std::size_t i = 0; i < gpu_nodes.size(); ++i) {
    const auto [k, n] = gpu_nodes[i];
    if (gpus_left == 0) break;
    const std::int32_t g = std::min(k, gpus_left);
    // Leave a core for each further node the rest of the GPUs need (they come from the
    // nodes with the most first), or those nodes could not take any of them.
    std::int32_t later_nodes = 0;
    for (std::int32_t need = gpus_left - g;
         need > 0 && i + 1 + static_cast<std::size_t>(later_nodes) < gpu_nodes.size();) {
      need -= gpu_nodes[i + 1 + static_cast<std::size_t>(later_nodes)].first;
      ++later_nodes;
    }
    const std::int32_t room = std::max(0, cores_left - later_nodes);
    const std::int32_t c =
        cores_memory_allows(cluster.node(n), r, std::min(cluster.node(n).free_cores, room));
    // A GPU with no core to drive it is useless, and a node with none of the job's cores
    // cannot run any of it (its launch would carry 0 cores): such a node is never taken.
    if (c == 0) continue;
    if (!memory_room(cluster.node(n), r, c)) continue;
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
    if (used || ns.free_cores == 0 || !scope.admits(cluster, n)) continue;
    const std::int32_t c = cores_memory_allows(ns, r, std::min(ns.free_cores, cores_left));
    if (c == 0) continue;
    alloc.nodes.push_back(take_on_node(cluster, n, c, 0, {}));
    cores_left -= c;
  }
  if (cores_left > 0) return std::nullopt;
  return alloc;
}

// allocation_unit = "socket": whole free sockets (no core used or fenced, no GPU held).
bool socket_whole_free(const NodeState& n, std::size_t s) {
  if (n.socket_used_cores[s] != 0) return false;
  for (std::size_t g = 0; g < n.gpu_used.size(); ++g) {
    if (static_cast<std::size_t>(n.topology.gpus[g].socket) == s && (n.gpu_used[g] || n.gpu_fenced[g])) {
      return false;
    }
  }
  return true;
}

std::int32_t whole_free_socket_cores(const NodeState& n) {
  std::int32_t k = 0;
  for (std::size_t s = 0; s < n.topology.sockets.size(); ++s) {
    if (socket_whole_free(n, s)) k += n.topology.sockets[s].cores;
  }
  return k;
}

// Whole free sockets of node n until `cores` cores and `gpus` GPUs are covered (sockets
// with matching GPUs first when GPUs are wanted, GPU-less sockets first otherwise). The
// allocation holds every core of the sockets taken. With `partial`, what the node has
// when it cannot cover the request; otherwise nullopt then.
std::optional<NodeAllocation> take_sockets(const ClusterState& cluster, NodeIndex node, std::int32_t cores,
                                           std::int32_t gpus, const ResourceRequest& r, bool partial) {
  const std::string& gpu_type = r.gpu_type;
  const NodeState& n = cluster.node(node);
  const auto& t = n.topology;
  NodeAllocation a;
  a.node = node;
  std::int32_t got_cores = 0;
  std::vector<std::uint8_t> taken(t.sockets.size(), 0);
  auto take = [&](std::size_t s) {
    taken[s] = 1;
    const std::int32_t first = t.first_core_of_socket(static_cast<std::int32_t>(s));
    for (std::int32_t c = 0; c < t.sockets[s].cores; ++c) a.cores.push_back(first + c);
    got_cores += t.sockets[s].cores;
    for (std::size_t g = 0; g < t.gpus.size(); ++g) {
      if (std::ssize(a.gpus) < gpus && static_cast<std::size_t>(t.gpus[g].socket) == s &&
          gpu_matches(t.gpus[g], gpu_type)) {
        a.gpus.push_back(static_cast<std::int32_t>(g));
      }
    }
  };
  auto socket_has = [&](std::size_t s, bool matching) {
    return std::any_of(t.gpus.begin(), t.gpus.end(), [&](const GpuDevice& g) {
      return static_cast<std::size_t>(g.socket) == s && (!matching || gpu_matches(g, gpu_type));
    });
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t s = 0; s < t.sockets.size(); ++s) {
      if (got_cores >= cores && std::ssize(a.gpus) >= gpus) break;
      if (taken[s] || !socket_whole_free(n, s)) continue;
      // Pass 0: the sockets this job is best placed on; pass 1: any.
      const bool first_choice = gpus > std::ssize(a.gpus) ? socket_has(s, true) : !socket_has(s, false);
      if (pass == 0 && !first_choice) continue;
      take(s);
    }
  }
  if (!partial && (got_cores < cores || std::ssize(a.gpus) < gpus)) return std::nullopt;
  // Memory goes with every core of the sockets taken; a node short of it gives nothing.
  if (!memory_room(n, r, std::ssize(a.cores))) {
    if (!partial) return std::nullopt;
    a.cores.clear();
    a.gpus.clear();
  }
  std::sort(a.cores.begin(), a.cores.end());
  std::sort(a.gpus.begin(), a.gpus.end());
  return a;
}

std::optional<Allocation> place_sockets(const ClusterState& cluster, const PartitionState& p,
                                        const ResourceRequest& r, Scope scope) {
  // Candidates by whole free socket cores, fewest first: best fit keeps empty nodes whole.
  std::vector<std::pair<std::int32_t, NodeIndex>> nodes;
  for (NodeIndex n : p.nodes) {
    if (!scope.admits(cluster, n)) continue;
    const NodeState& ns = cluster.node(n);
    const std::int32_t k = whole_free_socket_cores(ns);
    if (k > 0) nodes.emplace_back(k, n);
  }
  std::stable_sort(nodes.begin(), nodes.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  Allocation alloc;
  const std::int32_t want = r.nodes > 0 ? r.nodes : 1;
  for (const auto& [k, n] : nodes) {
    if (auto a = take_sockets(cluster, n, r.cores, r.gpus, r, false)) {
      alloc.nodes.push_back(std::move(*a));
      if (std::ssize(alloc.nodes) == want) return alloc;
    }
  }
  if (r.nodes > 0) return std::nullopt;
  // Not on one node: whole sockets from the emptiest nodes first.
  alloc.nodes.clear();
  std::int32_t cores_left = r.cores;
  std::int32_t gpus_left = r.gpus;
  for (auto it = nodes.rbegin(); it != nodes.rend() && (cores_left > 0 || gpus_left > 0); ++it) {
    auto a = take_sockets(cluster, it->second, cores_left, gpus_left, r, true);
    if (a->cores.empty()) continue;
    cores_left -= static_cast<std::int32_t>(a->cores.size());
    gpus_left -= static_cast<std::int32_t>(a->gpus.size());
    alloc.nodes.push_back(std::move(*a));
  }
  if (cores_left > 0 || gpus_left > 0) return std::nullopt;
  return alloc;
}

std::optional<Allocation> place_in(const ClusterState& cluster, const PartitionState& p,
                                   const ResourceRequest& r, Scope scope) {
  if (p.placement.allocation_unit == AllocationUnit::kSocket) return place_sockets(cluster, p, r, scope);
  if (r.nodes > 0) return place_per_node(cluster, p, r, scope);
  return place_spread(cluster, p, r, scope);
}

// Island placement for a job that may need several nodes: the island with the least
// room that holds it (best fit, as for nodes), else across islands when allowed.
std::optional<Allocation> place_by_island(const ClusterState& cluster, const PartitionState& p,
                                          const ResourceRequest& r, bool allow_multi_island,
                                          const NodeMask* allowed) {
  std::optional<Allocation> anywhere = place_in(cluster, p, r, Scope{-1, allowed});
  if (anywhere && anywhere->nodes.size() <= 1) return anywhere;  // one node: one island
  std::vector<std::pair<std::int64_t, std::int32_t>> islands;    // free cores, island
  for (std::int32_t island : p.islands) islands.emplace_back(0, island);
  // Whether an island, empty, could ever hold the request: by its node count and node
  // shapes as well as its cores (a 300-node job never fits a 250-node island, however
  // many cores that island has), else a job told to wait for one island waits forever.
  struct Capacity {
    std::int64_t cores = 0, gpus = 0, suitable_nodes = 0;
  };
  std::vector<Capacity> capacity(p.islands.size());
  for (NodeIndex n : p.nodes) {
    const NodeState& ns = cluster.node(n);
    for (auto& [free, island] : islands) {
      if (island == ns.island) free += ns.free_cores;
    }
    const auto at = std::find(p.islands.begin(), p.islands.end(), ns.island);
    if (at == p.islands.end()) continue;
    Capacity& cap = capacity[static_cast<std::size_t>(at - p.islands.begin())];
    std::int64_t gpus = 0;
    for (const auto& g : ns.topology.gpus) gpus += r.gpu_type.empty() || g.type == r.gpu_type ? 1 : 0;
    cap.cores += ns.topology.total_cores();
    cap.gpus += gpus;
    if (ns.topology.total_cores() >= r.cores && gpus >= r.gpus) ++cap.suitable_nodes;
  }
  const auto could_ever_hold = [&](const Capacity& cap) {
    if (r.nodes > 0) return cap.suitable_nodes >= r.nodes;
    return cap.cores >= r.total_cores() && cap.gpus >= r.total_gpus();
  };
  std::sort(islands.begin(), islands.end());
  bool some_island_could_hold = false;
  for (const auto& [free, island] : islands) {
    const auto idx =
        static_cast<std::size_t>(std::find(p.islands.begin(), p.islands.end(), island) - p.islands.begin());
    if (could_ever_hold(capacity[idx])) some_island_could_hold = true;
    if (free < r.total_cores()) continue;
    if (auto a = place_in(cluster, p, r, Scope{island, allowed})) return a;
  }
  const bool may_span = p.placement.island_placement == IslandPlacement::kPrefer || allow_multi_island ||
                        !some_island_could_hold;
  if (may_span) return anywhere;
  return std::nullopt;
}

}  // namespace

std::optional<Allocation> place_job(const ClusterState& cluster, PartitionIndex partition,
                                    const ResourceRequest& request, bool allow_multi_island,
                                    const NodeMask* allowed) {
  const PartitionState& p = cluster.partition(partition);
  if (!p.free.covers(requested_amount(request))) return std::nullopt;
  std::optional<Allocation> a;
  if (p.islands.size() > 1 && p.placement.island_placement != IslandPlacement::kAny && request.nodes != 1) {
    a = place_by_island(cluster, p, request, allow_multi_island, allowed);
  } else {
    a = place_in(cluster, p, request, Scope{-1, allowed});
  }
  if (!a) return a;
  assign_memory(*a, request);
  // Slurm's order, not the order the nodes were found in: the first is the batch host.
  if (a->nodes.size() > 1) {
    std::sort(a->nodes.begin(), a->nodes.end(), [&](const NodeAllocation& x, const NodeAllocation& y) {
      return cluster.node(x.node).name_rank < cluster.node(y.node).name_rank;
    });
  }
  return a;
}

void assign_memory(Allocation& alloc, const ResourceRequest& request) {
  for (NodeAllocation& na : alloc.nodes) na.memory_mb = request.memory_on_node(std::ssize(na.cores));
}

std::optional<Allocation> place_job(const ClusterState& cluster, const JobRecord& j) {
  return place_job(cluster, j.partition, j.spec.resources, j.spec.allow_multi_island,
                   j.allowed_nodes ? &*j.allowed_nodes : nullptr);
}

std::optional<Allocation> place_on_nodes(const ClusterState& cluster, const ResourceRequest& r,
                                         std::span<const NodeIndex> nodes) {
  Allocation alloc;
  for (NodeIndex n : nodes) {
    const NodeState& ns = cluster.node(n);
    if (ns.free_cores < r.cores || usable_gpus(ns, r.gpu_type) < r.gpus) return std::nullopt;
    if (!memory_room(ns, r, r.cores)) return std::nullopt;
    alloc.nodes.push_back(take_on_node(cluster, n, r.cores, r.gpus, r.gpu_type));
  }
  assign_memory(alloc, r);
  return alloc;
}

}  // namespace fairway
