#include "coordinator/core/victim_selection.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <unordered_map>

#include "coordinator/core/placement.h"
#include "coordinator/core/victim_search.h"

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

// Trying every node on its own in the greedy fallback costs a placement per victim per
// node: bounded so a pass over a large machine stays cheap (the all-nodes try still runs).
constexpr std::size_t kMaxNodesTried = 64;

// The exact search's work for one owner: enough for every single and pair and most
// triples of a node's or a small partition's victims; an owner's choice costs 4-10 ms of a
// pass on a full 10,000-node machine (bench/owner_preemption_bench.cpp).
constexpr SearchBudget kExactBudget{200'000, 2'000};

// The spaces a set of victims is drawn from. A one-node owner runs on one node, and a
// victim elsewhere frees nothing there: each node is its own space, with what each victim
// frees on it. Any other owner draws from the whole partition.
std::vector<SearchSpace> search_spaces(const ClusterState& cluster, const JobRecord& owner,
                                       const std::vector<JobRecord*>& useful,
                                       const std::unordered_map<const JobRecord*, std::size_t>& rank) {
  std::vector<SearchSpace> spaces;
  const ResourceRequest& req = owner.spec.resources;
  if (req.nodes != 1) {
    std::vector<SearchItem> items;
    for (std::size_t i = 0; i < useful.size(); ++i) {
      items.push_back({i, cluster.amount_in_partition(useful[i]->allocation, owner.partition),
                       useful[i]->priority.total, rank.at(useful[i])});
    }
    spaces.push_back(make_search_space(std::move(items), cluster.partition(owner.partition).free));
    return spaces;
  }
  const PartitionState& part = cluster.partition(owner.partition);
  std::vector<char> in_partition(cluster.node_count(), 0);
  for (NodeIndex n : part.nodes) in_partition[n.value()] = 1;
  std::map<std::uint32_t, std::vector<SearchItem>> by_node;  // ordered: deterministic
  for (std::size_t i = 0; i < useful.size(); ++i) {
    for (const NodeAllocation& na : useful[i]->allocation.nodes) {
      const NodeState& ns = cluster.node(na.node);
      if (!in_partition[na.node.value()]) continue;
      if (owner.allowed_nodes && !(*owner.allowed_nodes)[na.node.value()]) continue;
      // A socket-exclusive node also unfences what the victim held apart: count the whole
      // node, so the bound stays an upper bound and the judge decides.
      const ResourceAmount frees =
          ns.socket_exclusive ? ns.capacity()
                              : ResourceAmount{static_cast<std::int64_t>(na.cores.size()),
                                               static_cast<std::int64_t>(na.gpus.size()), na.memory_mb};
      by_node[na.node.value()].push_back({i, frees, useful[i]->priority.total, rank.at(useful[i])});
    }
  }
  for (auto& [node, items] : by_node) {
    spaces.push_back(make_search_space(std::move(items), cluster.node(NodeIndex(node)).free()));
  }
  return spaces;
}

// What the owner needs of its space: of one node for a one-node owner, else in all.
ResourceAmount space_need(const ResourceRequest& req) {
  if (req.nodes == 1) return {req.cores, req.gpus, req.memory_on_node(req.cores)};
  return requested_amount(req);
}

}  // namespace

std::optional<VictimChoice> choose_victims(ClusterState& cluster, const JobRecord& owner,
                                           std::span<JobRecord* const> candidates) {
  const PartitionState& part = cluster.partition(owner.partition);
  std::vector<bool> in_partition(cluster.node_count(), false);
  for (NodeIndex n : part.nodes) in_partition[n.value()] = true;

  std::unordered_map<const JobRecord*, std::size_t> rank;
  for (std::size_t i = 0; i < candidates.size(); ++i) rank[candidates[i]] = i;
  std::vector<JobRecord*> useful;
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
  }
  if (useful.empty()) return std::nullopt;

  // Exact first: sets of one victim, then two, and so on, each size searched whole in
  // every space before the next, so the first size with a set is the fewest.
  const std::vector<SearchSpace> spaces = search_spaces(cluster, owner, useful, rank);
  const ResourceAmount need = space_need(owner.spec.resources);
  const SearchJudge judge = [&](std::span<const std::size_t> ids) {
    for (std::size_t i : ids) cluster.release(useful[i]->allocation);
    const bool fits = place_owner(cluster, owner).has_value();
    for (std::size_t i : ids) cluster.allocate(useful[i]->allocation);
    return fits;
  };
  SearchBudget budget = kExactBudget;
  std::optional<SearchBest> found;
  bool exact = true;
  std::size_t largest_space = 0;
  for (const SearchSpace& s : spaces) largest_space = std::max(largest_space, s.items.size());
  for (std::size_t k = 1; k <= largest_space && !found && exact; ++k) {
    for (const SearchSpace& s : spaces) {
      if (!search_sets_of_size(s, k, need, judge, budget, found)) {
        exact = false;
        break;
      }
    }
  }
  if (exact && !found) return std::nullopt;  // not even every victim together makes room

  std::optional<VictimChoice> best;
  if (found) {
    VictimChoice c;
    for (std::size_t i : found->ids) c.victims.push_back(useful[i]);
    std::sort(c.victims.begin(), c.victims.end(),
              [&](const JobRecord* a, const JobRecord* b) { return rank.at(a) < rank.at(b); });
    best = std::move(c);
  }
  if (!exact) {
    // The search ran out of budget (a large partition's many victims): the greedy tries
    // as before, and the better of what each found.
    std::map<std::uint32_t, std::vector<JobRecord*>> by_node;  // ordered: deterministic
    for (JobRecord* v : useful) {
      for (const NodeAllocation& na : v->allocation.nodes) {
        if (in_partition[na.node.value()]) by_node[na.node.value()].push_back(v);
      }
    }
    const auto consider = [&](const std::vector<JobRecord*>& pool) {
      auto c = greedy(cluster, owner, pool);
      if (c && (!best || better(*c, *best, rank))) best = std::move(c);
    };
    if (owner.spec.resources.nodes <= 1 && by_node.size() > 1 && by_node.size() <= kMaxNodesTried) {
      for (const auto& [node, pool] : by_node) consider(pool);
    }
    consider(useful);
  }
  if (!best) return std::nullopt;
  for (JobRecord* v : best->victims) cluster.release(v->allocation);
  auto fit = place_owner(cluster, owner);
  assert(fit && "a chosen set of victims makes room");
  best->allocation = std::move(*fit);
  cluster.allocate(best->allocation);
  return best;
}

}  // namespace fairway
