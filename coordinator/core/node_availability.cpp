#include "coordinator/core/node_availability.h"

#include <algorithm>
#include <cassert>

namespace fairway {
namespace {

Duration at_least_one_second(Duration d) {
  return d < Duration::seconds(1) ? Duration::seconds(1) : d;
}

std::int32_t matching_gpus(const NodeState& n, const std::string& type) {
  std::int32_t k = 0;
  for (const auto& g : n.topology.gpus) k += (type.empty() || g.type == type) ? 1 : 0;
  return k;
}

}  // namespace

void NodeAvailability::reset(const ClusterState& cluster, Time now, std::span<const Release> releases) {
  origin_ = now;
  nodes_.assign(cluster.node_count(), {});
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    nodes_[n].push_back({now, cluster.node(NodeIndex(static_cast<std::uint32_t>(n))).free()});
  }
  std::vector<Release> sorted(releases.begin(), releases.end());
  std::sort(sorted.begin(), sorted.end(), [](const Release& a, const Release& b) {
    return a.node != b.node ? a.node < b.node : a.at < b.at;
  });
  for (const Release& r : sorted) {
    Timeline& tl = nodes_[r.node.value()];
    if (r.at <= now) {
      for (Step& s : tl) s.free += r.amount;
      continue;
    }
    if (tl.back().at != r.at) tl.push_back({r.at, tl.back().free});
    tl.back().free += r.amount;
  }
}

std::size_t NodeAvailability::step_of(const Timeline& tl, Time t) {
  auto it = std::upper_bound(tl.begin(), tl.end(), t, [](Time v, const Step& s) { return v < s.at; });
  assert(it != tl.begin());
  return static_cast<std::size_t>(it - tl.begin()) - 1;
}

Time NodeAvailability::earliest_on(const Timeline& tl, ResourceAmount need, Duration duration, Time t) {
  Time start = t;
  for (std::size_t i = step_of(tl, t); i < tl.size(); ++i) {
    if (tl[i].at >= start + duration) return start;
    if (!tl[i].free.covers(need)) {
      if (i + 1 == tl.size()) return Time::never();
      start = tl[i + 1].at;
    }
  }
  return start;
}

bool NodeAvailability::fits_on(const Timeline& tl, ResourceAmount need, Duration duration, Time t) {
  for (std::size_t i = step_of(tl, t); i < tl.size() && tl[i].at < t + duration; ++i) {
    if (!tl[i].free.covers(need)) return false;
  }
  return true;
}

NodeAvailability::Slot NodeAvailability::earliest(const ClusterState& cluster, PartitionIndex p,
                                                  const ResourceRequest& r, Duration duration,
                                                  Time not_before) const {
  duration = at_least_one_second(duration);
  const ResourceAmount need{r.cores, r.gpus, r.memory_on_node(r.cores)};
  const auto wanted = static_cast<std::size_t>(r.nodes);
  const std::vector<NodeIndex> suitable = suitable_nodes(cluster, p, r);
  Slot slot;
  if (wanted == 0 || suitable.size() < wanted) return slot;
  // Each round asks every node for its earliest window from t and moves t to the time by
  // which `wanted` nodes have one; t only grows, and it is final once that many nodes
  // can start exactly at t.
  Time t = max(not_before, origin_);
  std::vector<Time> starts(suitable.size());
  std::vector<Time> sorted;
  while (true) {
    for (std::size_t i = 0; i < suitable.size(); ++i) {
      starts[i] = earliest_on(nodes_[suitable[i].value()], need, duration, t);
    }
    sorted = starts;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(wanted - 1), sorted.end());
    const Time nth = sorted[wanted - 1];
    if (nth.is_never()) return slot;
    if (nth == t) break;
    t = nth;
  }
  slot.start = t;
  for (std::size_t i = 0; i < suitable.size() && slot.nodes.size() < wanted; ++i) {
    if (starts[i] == t) slot.nodes.push_back(suitable[i]);
  }
  return slot;
}

std::vector<NodeIndex> NodeAvailability::suitable_nodes(const ClusterState& cluster, PartitionIndex p,
                                                        const ResourceRequest& r) {
  std::vector<NodeIndex> suitable;
  for (NodeIndex n : cluster.partition(p).nodes) {
    const NodeState& ns = cluster.node(n);
    if (ns.capacity().cores >= r.cores && matching_gpus(ns, r.gpu_type) >= r.gpus &&
        ns.capacity().memory_mb >= r.memory_on_node(r.cores)) {
      suitable.push_back(n);
    }
  }
  if (r.gpus == 0) {
    std::stable_partition(suitable.begin(), suitable.end(),
                          [&](NodeIndex n) { return cluster.node(n).topology.total_gpus() == 0; });
  }
  return suitable;
}

NodeAvailability::Slot NodeAvailability::at(const ClusterState& cluster, PartitionIndex p,
                                            const ResourceRequest& r, Duration duration, Time start) const {
  duration = at_least_one_second(duration);
  start = max(start, origin_);
  const ResourceAmount need{r.cores, r.gpus, r.memory_on_node(r.cores)};
  Slot slot;
  auto take = [&](NodeIndex n) {
    if (!fits_on(nodes_[n.value()], need, duration, start)) return false;
    slot.nodes.push_back(n);
    return std::ssize(slot.nodes) == r.nodes;
  };
  if (start == origin_) {
    // Now, only nodes with enough cores free now can qualify; on a busy machine the
    // partition's free-core index names far fewer of them than the partition holds.
    const PartitionState& ps = cluster.partition(p);
    for (std::int32_t f = std::max(r.cores, 0); f <= ps.free_index.max_cores(); ++f) {
      for (NodeIndex n : ps.free_index.with_free(f)) {
        if (matching_gpus(cluster.node(n), r.gpu_type) < r.gpus) continue;
        if (take(n)) {
          slot.start = start;
          return slot;
        }
      }
    }
    return {};
  }
  for (NodeIndex n : suitable_nodes(cluster, p, r)) {
    if (take(n)) {
      slot.start = start;
      return slot;
    }
  }
  return {};
}

bool NodeAvailability::fits(const Allocation& alloc, Time start, Duration duration) const {
  duration = at_least_one_second(duration);
  start = max(start, origin_);
  for (const NodeAllocation& a : alloc.nodes) {
    const ResourceAmount share{std::ssize(a.cores), std::ssize(a.gpus), a.memory_mb};
    if (!fits_on(nodes_[a.node.value()], share, duration, start)) return false;
  }
  return true;
}

std::size_t NodeAvailability::split(Timeline& tl, Time t) {
  const std::size_t i = step_of(tl, t);
  if (tl[i].at == t) return i;
  tl.insert(tl.begin() + static_cast<std::ptrdiff_t>(i + 1), Step{t, tl[i].free});
  return i + 1;
}

void NodeAvailability::reserve(NodeIndex n, Time start, Duration duration, ResourceAmount amount) {
  duration = at_least_one_second(duration);
  start = max(start, origin_);
  Timeline& tl = nodes_[n.value()];
  const Time end = start + duration;
  if (!end.is_never()) split(tl, end);
  const std::size_t from = split(tl, start);
  const std::size_t to = end.is_never() ? tl.size() : step_of(tl, end);
  for (std::size_t i = from; i < to; ++i) tl[i].free -= amount;
}

void NodeAvailability::reserve(const Allocation& alloc, Time start, Duration duration) {
  for (const NodeAllocation& a : alloc.nodes) {
    reserve(a.node, start, duration, {std::ssize(a.cores), std::ssize(a.gpus), a.memory_mb});
  }
}

ResourceAmount NodeAvailability::free_at(NodeIndex n, Time t) const {
  const Timeline& tl = nodes_[n.value()];
  return tl[step_of(tl, max(t, origin_))].free;
}

}  // namespace fairway
