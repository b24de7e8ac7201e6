// Where a job's processes run, by node name: a function of its allocation in the core,
// whose first node is its head (its batch script's) and the others its members (its steps').
#pragma once

#include <string>
#include <vector>

#include "coordinator/core/cluster_state.h"
#include "coordinator/core/scheduler.h"
#include "shared/base/ids.h"
#include "shared/model/allocation.h"

namespace fairway::daemon {

// Empty when it holds no nodes (waiting, or back in the queue).
inline std::string head_node(const Allocation& a, const ClusterState& cluster) {
  return a.nodes.empty() ? std::string() : cluster.node(a.nodes.front().node).topology.name;
}

inline std::vector<std::string> member_nodes(const Allocation& a, const ClusterState& cluster) {
  std::vector<std::string> out;
  for (std::size_t i = 1; i < a.nodes.size(); ++i) out.push_back(cluster.node(a.nodes[i].node).topology.name);
  return out;
}

inline bool runs_on(const Allocation& a, NodeIndex node) {
  for (const NodeAllocation& na : a.nodes) {
    if (na.node == node) return true;
  }
  return false;
}

// Of a job the core holds; empty for one it does not (ended and forgotten, or unknown).
inline std::string head_node(const Scheduler& scheduler, JobId id) {
  const JobRecord* rec = scheduler.job(id);
  return rec != nullptr ? head_node(rec->allocation, scheduler.cluster()) : std::string();
}

inline std::vector<std::string> member_nodes(const Scheduler& scheduler, JobId id) {
  const JobRecord* rec = scheduler.job(id);
  return rec != nullptr ? member_nodes(rec->allocation, scheduler.cluster()) : std::vector<std::string>();
}

}  // namespace fairway::daemon
