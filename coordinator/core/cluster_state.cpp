#include "coordinator/core/cluster_state.h"

#include <algorithm>
#include <cassert>

namespace fairway {

NodeIndex ClusterState::add_node(NodeTopology topology) {
  assert(partitions_.empty() && "nodes are added before partitions");
  NodeIndex idx(static_cast<std::uint32_t>(nodes_.size()));
  NodeState n;
  n.core_used.assign(static_cast<std::size_t>(topology.total_cores()), 0);
  n.gpu_used.assign(static_cast<std::size_t>(topology.total_gpus()), 0);
  n.free_cores = topology.total_cores();
  n.free_gpus = topology.total_gpus();
  node_by_name_.emplace(topology.name, idx);
  n.topology = std::move(topology);
  nodes_.push_back(std::move(n));
  return idx;
}

Result<PartitionIndex> ClusterState::add_partition(const std::string& name,
                                                   const std::vector<std::string>& node_names) {
  if (find_partition(name)) return make_error(ErrorCode::kAlreadyExists, "partition '" + name + "' exists");
  PartitionIndex idx(static_cast<std::uint32_t>(partitions_.size()));
  PartitionState p;
  p.name = name;
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
  return idx;
}

void ClusterState::rebuild_partition(PartitionIndex idx) {
  PartitionState& p = partitions_[idx.value()];
  p.capacity = {};
  p.free = {};
  p.largest_node_cores = 0;
  p.largest_node_gpus = 0;
  p.shapes.clear();
  for (NodeIndex n : p.nodes) {
    const NodeState& ns = nodes_[n.value()];
    p.capacity += ns.capacity();
    p.free += ns.free();
    p.largest_node_cores = std::max(p.largest_node_cores, ns.topology.total_cores());
    p.largest_node_gpus = std::max(p.largest_node_gpus, ns.topology.total_gpus());
    const NodeTopology& t = ns.topology;
    std::vector<std::string> types;
    for (const auto& g : t.gpus) types.push_back(g.type);
    std::sort(types.begin(), types.end());
    auto same = [&](const NodeShape& s) { return s.cores == t.total_cores() && s.gpu_types == types; };
    auto it = std::find_if(p.shapes.begin(), p.shapes.end(), same);
    if (it == p.shapes.end()) {
      p.shapes.push_back({t.total_cores(), std::move(types), 1});
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
          a == b || std::any_of(partitions_[b].nodes.begin(), partitions_[b].nodes.end(),
                                [&](NodeIndex n) {
                                  const auto& parts = nodes_[n.value()].partitions;
                                  return std::find(parts.begin(), parts.end(), pa) != parts.end();
                                });
      if (shares) partitions_[a].overlapping.push_back(PartitionIndex(static_cast<std::uint32_t>(b)));
    }
  }
}

NodeIndex ClusterState::add_node_later(NodeTopology topology,
                                       const std::vector<PartitionIndex>& partitions) {
  const NodeIndex idx(static_cast<std::uint32_t>(nodes_.size()));
  NodeState n;
  n.core_used.assign(static_cast<std::size_t>(topology.total_cores()), 0);
  n.gpu_used.assign(static_cast<std::size_t>(topology.total_gpus()), 0);
  n.free_cores = topology.total_cores();
  n.free_gpus = topology.total_gpus();
  node_by_name_.emplace(topology.name, idx);
  n.topology = std::move(topology);
  n.partitions = partitions;
  nodes_.push_back(std::move(n));
  for (PartitionIndex p : partitions) partitions_[p.value()].nodes.push_back(idx);
  // Every index is sized by the node count, so all partitions are rebuilt, not just ours.
  for (std::size_t p = 0; p < partitions_.size(); ++p) {
    rebuild_partition(PartitionIndex(static_cast<std::uint32_t>(p)));
  }
  rebuild_overlaps();
  return idx;
}

void ClusterState::set_node_up(NodeIndex n, bool up) {
  NodeState& ns = nodes_[n.value()];
  if (ns.up == up) return;
  const ResourceAmount before = ns.free();
  const std::uint8_t from = up ? NodeState::kOffline : 0;
  const std::uint8_t to = up ? 0 : NodeState::kOffline;
  for (auto& c : ns.core_used) {
    if (c == from) c = to;
  }
  for (auto& g : ns.gpu_used) {
    if (g == from) g = to;
  }
  ns.up = up;
  ns.free_cores = static_cast<std::int32_t>(std::count(ns.core_used.begin(), ns.core_used.end(), 0));
  ns.free_gpus = static_cast<std::int32_t>(std::count(ns.gpu_used.begin(), ns.gpu_used.end(), 0));
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

void ClusterState::allocate(const Allocation& a) {
  for (const auto& na : a.nodes) {
    NodeState& ns = nodes_[na.node.value()];
    const ResourceAmount before = ns.free();
    for (std::int32_t c : na.cores) {
      assert(!ns.core_used[static_cast<std::size_t>(c)]);
      ns.core_used[static_cast<std::size_t>(c)] = 1;
    }
    for (std::int32_t g : na.gpus) {
      assert(!ns.gpu_used[static_cast<std::size_t>(g)]);
      ns.gpu_used[static_cast<std::size_t>(g)] = 1;
    }
    ns.free_cores -= static_cast<std::int32_t>(na.cores.size());
    ns.free_gpus -= static_cast<std::int32_t>(na.gpus.size());
    set_node_free(na.node, before);
  }
}

void ClusterState::release(const Allocation& a) {
  for (const auto& na : a.nodes) {
    NodeState& ns = nodes_[na.node.value()];
    const ResourceAmount before = ns.free();
    const std::uint8_t freed = ns.up ? 0 : NodeState::kOffline;
    for (std::int32_t c : na.cores) {
      assert(ns.core_used[static_cast<std::size_t>(c)] == 1);
      ns.core_used[static_cast<std::size_t>(c)] = freed;
    }
    for (std::int32_t g : na.gpus) {
      assert(ns.gpu_used[static_cast<std::size_t>(g)] == 1);
      ns.gpu_used[static_cast<std::size_t>(g)] = freed;
    }
    if (ns.up) {
      ns.free_cores += static_cast<std::int32_t>(na.cores.size());
      ns.free_gpus += static_cast<std::int32_t>(na.gpus.size());
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
                          static_cast<std::int64_t>(na.gpus.size())};
  }
  return sum;
}

}  // namespace fairway
