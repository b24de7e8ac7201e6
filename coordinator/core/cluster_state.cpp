#include "coordinator/core/cluster_state.h"

#include "shared/config/hostlist.h"

#include <algorithm>
#include <cassert>

namespace fairway {
namespace {

// Sets the cores' core_used to `mark` and moves their sockets' used counts by `delta`.
// A trace replay spends most of its time here: placement gives sorted lists, usually one
// run of cores, and most nodes have one socket, so both take a bulk path.
void mark_cores(NodeState& ns, const std::vector<std::int32_t>& cores, std::uint8_t mark,
                std::int32_t delta) {
  if (cores.empty()) return;
  const std::int32_t first = cores.front();
  bool one_run = true;
  for (std::size_t i = 1; i < cores.size() && one_run; ++i)
    one_run = cores[i] == first + static_cast<std::int32_t>(i);
  if (one_run) {
    std::fill_n(ns.core_used.begin() + first, cores.size(), mark);
  } else {
    for (std::int32_t c : cores) ns.core_used[static_cast<std::size_t>(c)] = mark;
  }
  if (ns.socket_used_cores.size() == 1) {
    ns.socket_used_cores[0] += delta * static_cast<std::int32_t>(cores.size());
    return;
  }
  for (std::int32_t c : cores)
    ns.socket_used_cores[static_cast<std::size_t>(ns.socket_of_core[static_cast<std::size_t>(c)])] += delta;
}

}  // namespace

NodeState ClusterState::make_node(NodeTopology topology) {
  NodeState n;
  n.core_used.assign(static_cast<std::size_t>(topology.total_cores()), 0);
  n.gpu_used.assign(static_cast<std::size_t>(topology.total_gpus()), 0);
  n.core_fenced.assign(n.core_used.size(), 0);
  n.gpu_fenced.assign(n.gpu_used.size(), 0);
  n.socket_used_cores.assign(topology.sockets.size(), 0);
  for (std::size_t s = 0; s < topology.sockets.size(); ++s) {
    n.socket_of_core.insert(n.socket_of_core.end(), static_cast<std::size_t>(topology.sockets[s].cores),
                            static_cast<std::int32_t>(s));
  }
  n.free_cores = topology.total_cores();
  n.free_gpus = topology.total_gpus();
  n.memory_capacity_mb = topology.memory_mb > 0 ? topology.memory_mb : kUntrackedMemoryMb;
  if (!topology.island.empty()) {
    auto it = std::find(island_names_.begin(), island_names_.end(), topology.island);
    n.island = static_cast<std::int32_t>(it - island_names_.begin());
    if (it == island_names_.end()) island_names_.push_back(topology.island);
  }
  n.topology = std::move(topology);
  return n;
}

NodeIndex ClusterState::add_node(NodeTopology topology) {
  assert(partitions_.empty() && "nodes are added before partitions");
  NodeIndex idx(static_cast<std::uint32_t>(nodes_.size()));
  node_by_name_.emplace(topology.name, idx);
  nodes_.push_back(make_node(std::move(topology)));
  return idx;
}

NodeIndex ClusterState::add_node_later(NodeTopology topology, const std::vector<PartitionIndex>& partitions) {
  const NodeIndex idx(static_cast<std::uint32_t>(nodes_.size()));
  node_by_name_.emplace(topology.name, idx);
  nodes_.push_back(make_node(std::move(topology)));
  nodes_.back().partitions = partitions;
  for (PartitionIndex p : partitions) partitions_[p.value()].nodes.push_back(idx);
  // Every index is sized by the node count, so all partitions are rebuilt, not just ours.
  for (std::size_t p = 0; p < partitions_.size(); ++p) {
    rebuild_partition(PartitionIndex(static_cast<std::uint32_t>(p)));
  }
  rebuild_overlaps();
  rank_names();
  return idx;
}

Result<PartitionIndex> ClusterState::add_partition(const std::string& name,
                                                   const std::vector<std::string>& node_names,
                                                   const PlacementConfig& placement) {
  if (find_partition(name)) return make_error(ErrorCode::kAlreadyExists, "partition '" + name + "' exists");
  PartitionIndex idx(static_cast<std::uint32_t>(partitions_.size()));
  PartitionState p;
  p.name = name;
  p.placement = placement;
  for (const auto& node_name : node_names) {
    auto n = find_node(node_name);
    if (!n) return invalid_argument("partition '" + name + "': unknown node '" + node_name + "'");
    if (std::find(p.nodes.begin(), p.nodes.end(), *n) != p.nodes.end()) continue;
    p.nodes.push_back(*n);
    nodes_[n->value()].partitions.push_back(idx);
  }
  partitions_.push_back(std::move(p));
  rebuild_partition(idx);
  rebuild_overlaps();
  rank_names();
  return idx;
}

void ClusterState::rank_names() {
  std::vector<std::uint32_t> order(nodes_.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return hostlist_less(nodes_[a].topology.name, nodes_[b].topology.name);
  });
  for (std::uint32_t r = 0; r < order.size(); ++r) nodes_[order[r]].name_rank = r;
}

// Everything derived from the partition's node list: capacity, free counts, shapes,
// islands, the free-core index, and the fencing rule its GPU nodes follow.
void ClusterState::rebuild_partition(PartitionIndex idx) {
  PartitionState& p = partitions_[idx.value()];
  p.capacity = {};
  p.free = {};
  p.largest_node_cores = 0;
  p.largest_node_gpus = 0;
  p.memory_tracked = false;
  p.shapes.clear();
  p.islands.clear();
  p.island_cores.clear();
  for (NodeIndex n : p.nodes) {
    NodeState& ns = nodes_[n.value()];
    p.capacity += ns.capacity();
    p.free += ns.free();
    p.largest_node_cores = std::max(p.largest_node_cores, ns.topology.total_cores());
    p.largest_node_gpus = std::max(p.largest_node_gpus, ns.topology.total_gpus());
    p.memory_tracked = p.memory_tracked || ns.memory_tracked();
    if (p.placement.socket_exclusive_gpus && ns.topology.total_gpus() > 0) ns.socket_exclusive = true;
    if (ns.island >= 0) {
      auto it = std::find(p.islands.begin(), p.islands.end(), ns.island);
      if (it == p.islands.end()) {
        p.islands.push_back(ns.island);
        p.island_cores.push_back(0);
        it = p.islands.end() - 1;
      }
      p.island_cores[static_cast<std::size_t>(it - p.islands.begin())] += ns.topology.total_cores();
    }
    const NodeTopology& t = ns.topology;
    std::vector<std::string> types;
    for (const auto& g : t.gpus) types.push_back(g.type);
    std::sort(types.begin(), types.end());
    auto same = [&](const NodeShape& s) {
      return s.cores == t.total_cores() && s.gpu_types == types && s.memory_mb == ns.memory_capacity_mb;
    };
    auto it = std::find_if(p.shapes.begin(), p.shapes.end(), same);
    if (it == p.shapes.end()) {
      p.shapes.push_back({t.total_cores(), std::move(types), ns.memory_capacity_mb, 1});
    } else {
      ++it->count;
    }
  }
  p.free_index.init(nodes_.size(), p.largest_node_cores);
  for (NodeIndex n : p.nodes) p.free_index.insert(n, nodes_[n.value()].free_cores);
}

// Overlap sets let a reservation in one partition shadow the partitions it shares nodes with.
void ClusterState::rebuild_overlaps() {
  for (auto& q : partitions_) q.overlapping.clear();
  for (std::size_t a = 0; a < partitions_.size(); ++a) {
    const PartitionIndex pa(static_cast<std::uint32_t>(a));
    for (std::size_t b = 0; b < partitions_.size(); ++b) {
      const bool shares =
          a == b || std::any_of(partitions_[b].nodes.begin(), partitions_[b].nodes.end(), [&](NodeIndex n) {
            const auto& parts = nodes_[n.value()].partitions;
            return std::find(parts.begin(), parts.end(), pa) != parts.end();
          });
      if (shares) partitions_[a].overlapping.push_back(PartitionIndex(static_cast<std::uint32_t>(b)));
    }
  }
}

// Down: every core and GPU not held by a job is withheld (kOffline) and nothing is
// fenced. Up: they are free again and the fences are derived anew from the GPUs held,
// since a socket with a held GPU has exactly one owner (placement's rule).
void ClusterState::set_node_up(NodeIndex n, bool up) {
  NodeState& ns = nodes_[n.value()];
  if (ns.up == up) return;
  const ResourceAmount before = ns.free();
  ns.up = up;
  for (std::size_t c = 0; c < ns.core_used.size(); ++c) {
    if (ns.core_used[c] != 1) ns.core_used[c] = up ? 0 : NodeState::kOffline;
    ns.core_fenced[c] = 0;
  }
  for (std::size_t g = 0; g < ns.gpu_used.size(); ++g) {
    if (ns.gpu_used[g] != 1) ns.gpu_used[g] = up ? 0 : NodeState::kOffline;
    ns.gpu_fenced[g] = 0;
  }
  if (up && ns.socket_exclusive) {
    const NodeTopology& t = ns.topology;
    for (std::size_t g = 0; g < t.gpus.size(); ++g) {
      if (ns.gpu_used[g] != 1) continue;
      const std::int32_t socket = t.gpus[g].socket;
      const std::int32_t first = t.first_core_of_socket(socket);
      const std::int32_t last = first + t.sockets[static_cast<std::size_t>(socket)].cores;
      for (std::int32_t c = first; c < last; ++c) {
        if (ns.core_used[static_cast<std::size_t>(c)] == 0) ns.core_fenced[static_cast<std::size_t>(c)] = 1;
      }
      for (std::size_t h = 0; h < t.gpus.size(); ++h) {
        if (t.gpus[h].socket == socket && ns.gpu_used[h] == 0) ns.gpu_fenced[h] = 1;
      }
    }
  }
  ns.free_cores = 0;
  ns.free_gpus = 0;
  for (std::size_t c = 0; c < ns.core_used.size(); ++c)
    ns.free_cores += ns.core_used[c] == 0 && !ns.core_fenced[c];
  for (std::size_t g = 0; g < ns.gpu_used.size(); ++g)
    ns.free_gpus += ns.gpu_used[g] == 0 && !ns.gpu_fenced[g];
  set_node_free(n, before);
}

std::optional<PartitionIndex> ClusterState::find_partition(const std::string& name) const {
  for (std::size_t i = 0; i < partitions_.size(); ++i) {
    if (partitions_[i].name == name) return PartitionIndex(static_cast<std::uint32_t>(i));
  }
  return std::nullopt;
}

std::optional<NodeIndex> ClusterState::find_node(const std::string& name) const {
  auto it = node_by_name_.find(name);
  if (it == node_by_name_.end()) return std::nullopt;
  return it->second;
}

void ClusterState::set_node_free(NodeIndex n, ResourceAmount before) {
  NodeState& ns = nodes_[n.value()];
  const ResourceAmount delta = ns.free() - before;
  for (PartitionIndex p : ns.partitions) {
    PartitionState& ps = partitions_[p.value()];
    ps.free += delta;
    ps.free_index.update(n, ns.free_cores);
  }
}

// Fences (or frees) the rest of every socket where `na` holds a GPU: socket_fence_allows
// kept as a mask, so that placement's scans test one bit per core. By the same rule nobody
// else holds anything there, so "the rest" is every core and GPU not in `na`.
void ClusterState::set_fence(NodeState& ns, const NodeAllocation& na, bool fenced) {
  const auto& t = ns.topology;
  for (std::int32_t g : na.gpus) {
    const std::int32_t socket = t.gpus[static_cast<std::size_t>(g)].socket;
    const std::int32_t first = t.first_core_of_socket(socket);
    const std::int32_t last = first + t.sockets[static_cast<std::size_t>(socket)].cores;
    for (std::int32_t c = first; c < last; ++c) {
      const auto ci = static_cast<std::size_t>(c);
      if (ns.core_used[ci] || ns.core_fenced[ci] == static_cast<std::uint8_t>(fenced)) continue;
      ns.core_fenced[ci] = fenced ? 1 : 0;
      ns.free_cores += fenced ? -1 : 1;
    }
    for (std::size_t h = 0; h < t.gpus.size(); ++h) {
      if (t.gpus[h].socket != socket || ns.gpu_used[h]) continue;
      if (ns.gpu_fenced[h] == static_cast<std::uint8_t>(fenced)) continue;
      ns.gpu_fenced[h] = fenced ? 1 : 0;
      ns.free_gpus += fenced ? -1 : 1;
    }
  }
}

void ClusterState::allocate(const Allocation& a) {
  for (const auto& na : a.nodes) {
    NodeState& ns = nodes_[na.node.value()];
    const ResourceAmount before = ns.free();
    assert(std::all_of(na.gpus.begin(), na.gpus.end(),
                       [&](std::int32_t g) { return ns.gpu_usable(static_cast<std::size_t>(g)); }));
    assert(std::all_of(na.cores.begin(), na.cores.end(),
                       [&](std::int32_t c) { return ns.core_free(static_cast<std::size_t>(c)); }));
    mark_cores(ns, na.cores, 1, +1);
    for (std::int32_t g : na.gpus) {
      assert(!ns.gpu_used[static_cast<std::size_t>(g)]);
      ns.gpu_used[static_cast<std::size_t>(g)] = 1;
    }
    ns.free_cores -= static_cast<std::int32_t>(na.cores.size());
    ns.free_gpus -= static_cast<std::int32_t>(na.gpus.size());
    ns.used_memory_mb += na.memory_mb;
    if (ns.socket_exclusive && !na.gpus.empty()) set_fence(ns, na, true);
    set_node_free(na.node, before);
  }
}

void ClusterState::release(const Allocation& a) {
  for (const auto& na : a.nodes) {
    NodeState& ns = nodes_[na.node.value()];
    const ResourceAmount before = ns.free();
    // On a down node what a job releases is withheld until the node is up again.
    const std::uint8_t freed = ns.up ? 0 : NodeState::kOffline;
    assert(std::all_of(na.cores.begin(), na.cores.end(),
                       [&](std::int32_t c) { return ns.core_used[static_cast<std::size_t>(c)] == 1; }));
    mark_cores(ns, na.cores, freed, -1);
    for (std::int32_t g : na.gpus) {
      assert(ns.gpu_used[static_cast<std::size_t>(g)] == 1);
      ns.gpu_used[static_cast<std::size_t>(g)] = freed;
    }
    ns.used_memory_mb -= na.memory_mb;
    if (ns.up) {
      ns.free_cores += static_cast<std::int32_t>(na.cores.size());
      ns.free_gpus += static_cast<std::int32_t>(na.gpus.size());
      if (ns.socket_exclusive && !na.gpus.empty()) set_fence(ns, na, false);
    }
    set_node_free(na.node, before);
  }
}

ResourceAmount ClusterState::amount_in_partition(const Allocation& a, PartitionIndex p) const {
  ResourceAmount sum;
  for (const auto& na : a.nodes) {
    const auto& parts = nodes_[na.node.value()].partitions;
    if (std::find(parts.begin(), parts.end(), p) == parts.end()) continue;
    sum += ResourceAmount{static_cast<std::int64_t>(na.cores.size()),
                          static_cast<std::int64_t>(na.gpus.size()), na.memory_mb};
    const NodeState& ns = nodes_[na.node.value()];
    if (!ns.socket_exclusive || na.gpus.empty()) continue;
    // The fenced rest of each socket where it holds a GPU (a socket counted once).
    const auto& t = ns.topology;
    std::vector<std::uint8_t> counted(t.sockets.size(), 0);
    for (std::int32_t g : na.gpus) {
      const auto socket = static_cast<std::size_t>(t.gpus[static_cast<std::size_t>(g)].socket);
      if (counted[socket]) continue;
      counted[socket] = 1;
      std::int64_t own_cores = 0;
      for (std::int32_t c : na.cores)
        own_cores += ns.socket_of_core[static_cast<std::size_t>(c)] == static_cast<std::int32_t>(socket);
      std::int64_t socket_gpus = 0;
      std::int64_t own_gpus = 0;
      for (std::size_t h = 0; h < t.gpus.size(); ++h) {
        if (static_cast<std::size_t>(t.gpus[h].socket) != socket) continue;
        ++socket_gpus;
        own_gpus += std::count(na.gpus.begin(), na.gpus.end(), static_cast<std::int32_t>(h));
      }
      sum += ResourceAmount{t.sockets[socket].cores - own_cores, socket_gpus - own_gpus};
    }
  }
  return sum;
}

}  // namespace fairway
