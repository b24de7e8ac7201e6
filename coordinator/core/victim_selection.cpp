#include "coordinator/core/victim_selection.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "coordinator/core/placement.h"

namespace fairway {
namespace {

std::optional<Allocation> place_owner(const ClusterState& cluster, const JobRecord& owner) {
  return place_job(cluster, owner);
}

// Releases `pool` in order until the owner fits, then gives back every victim it does
// not need, costliest first. Leaves `cluster` as it found it; returns the victims.
std::optional<VictimChoice> greedy(ClusterState& cluster, const JobRecord& owner,
                                   const std::vector<JobRecord*>& pool) {
  std::vector<JobRecord*> released;
  std::optional<Allocation> fit;
  for (JobRecord* v : pool) {
    cluster.release(v->allocation);
    released.push_back(v);
    if ((fit = place_owner(cluster, owner))) break;
  }
  if (!fit) {
    for (JobRecord* v : released) cluster.allocate(v->allocation);
    return std::nullopt;
  }
  std::vector<JobRecord*> needed;
  for (auto it = released.rbegin(); it != released.rend(); ++it) {
    if (it == released.rbegin()) {  // the last one released is what made it fit
      needed.push_back(*it);
      continue;
    }
    cluster.allocate((*it)->allocation);
    if (auto still = place_owner(cluster, owner)) {
      fit = std::move(still);  // not needed: it keeps running
    } else {
      cluster.release((*it)->allocation);
      needed.push_back(*it);
    }
  }
  // The last one may be redundant now that others were kept out: check it too.
  if (needed.size() > 1) {
    cluster.allocate(needed.front()->allocation);
    if (auto still = place_owner(cluster, owner)) {
      fit = std::move(still);
      needed.erase(needed.begin());
    } else {
      cluster.release(needed.front()->allocation);
    }
  }
  fit = place_owner(cluster, owner);
  for (JobRecord* v : needed) cluster.allocate(v->allocation);
  std::reverse(needed.begin(), needed.end());
  return VictimChoice{std::move(needed), std::move(*fit)};
}

double summed_priority(const VictimChoice& c) {
  double s = 0;
  for (const JobRecord* v : c.victims) s += v->priority.total;
  return s;
}

// Fewer victims; then lower summed priority; then victims earlier in the caller's order
// (the cheapest to lose), so equal choices resolve as the candidates were ranked.
bool better(const VictimChoice& a, const VictimChoice& b,
            const std::unordered_map<const JobRecord*, std::size_t>& rank) {
  if (a.victims.size() != b.victims.size()) return a.victims.size() < b.victims.size();
  const double pa = summed_priority(a);
  const double pb = summed_priority(b);
  if (pa != pb) return pa < pb;
  std::size_t ra = 0, rb = 0;
  for (const JobRecord* v : a.victims) ra += rank.at(v);
  for (const JobRecord* v : b.victims) rb += rank.at(v);
  return ra < rb;
}

// Trying every node on its own costs a placement per victim per node: bounded so a pass
// over a large machine stays cheap (the all-nodes try still runs).
constexpr std::size_t kMaxNodesTried = 64;

}  // namespace

std::optional<VictimChoice> choose_victims(ClusterState& cluster, const JobRecord& owner,
                                           std::span<JobRecord* const> candidates) {
  const PartitionState& part = cluster.partition(owner.partition);
  std::vector<bool> in_partition(cluster.node_count(), false);
  for (NodeIndex n : part.nodes) in_partition[n.value()] = true;

  std::unordered_map<const JobRecord*, std::size_t> rank;
  for (std::size_t i = 0; i < candidates.size(); ++i) rank[candidates[i]] = i;
  std::vector<JobRecord*> useful;
  std::map<std::uint32_t, std::vector<JobRecord*>> by_node;  // ordered: deterministic
  for (JobRecord* v : candidates) {
    bool touches = false;
    bool on_down_node = false;
    for (const NodeAllocation& na : v->allocation.nodes) {
      if (!cluster.node(na.node).up) on_down_node = true;
      if (in_partition[na.node.value()]) touches = true;
    }
    // A down node's cores are withheld whatever its jobs do: stopping them frees nothing.
    if (!touches || on_down_node) continue;
    useful.push_back(v);
    for (const NodeAllocation& na : v->allocation.nodes) {
      if (in_partition[na.node.value()]) by_node[na.node.value()].push_back(v);
    }
  }
  if (useful.empty()) return std::nullopt;

  std::optional<VictimChoice> best;
  const auto consider = [&](const std::vector<JobRecord*>& pool) {
    auto c = greedy(cluster, owner, pool);
    if (c && (!best || better(*c, *best, rank))) best = std::move(c);
  };
  if (owner.spec.resources.nodes <= 1 && by_node.size() > 1 && by_node.size() <= kMaxNodesTried) {
    for (const auto& [node, pool] : by_node) consider(pool);
  }
  consider(useful);
  if (!best) return std::nullopt;
  for (JobRecord* v : best->victims) cluster.release(v->allocation);
  cluster.allocate(best->allocation);
  return best;
}

}  // namespace fairway
