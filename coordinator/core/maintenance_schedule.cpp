#include "coordinator/core/maintenance_schedule.h"

#include <algorithm>

namespace fairway {

MaintenanceSchedule::MaintenanceSchedule(const Config& config) {
  for (const ReservationConfig& r : config.reservations) {
    if (!r.maintenance && !r.project()) continue;
    windows_.push_back({r.name, r.start, r.end(), r.account, r.all_nodes, {r.nodes.begin(), r.nodes.end()}});
  }
  std::sort(windows_.begin(), windows_.end(),
            [](const MaintenanceWindow& a, const MaintenanceWindow& b) { return a.start < b.start; });
}

const MaintenanceWindow* MaintenanceSchedule::find(const std::string& name) const {
  for (const MaintenanceWindow& w : windows_) {
    if (w.name == name) return &w;
  }
  return nullptr;
}

void MaintenanceSchedule::cancel(const std::string& name, Time at) {
  for (MaintenanceWindow& w : windows_) {
    if (w.name == name) w.end = min(w.end, max(at, w.start));
  }
}

ResourceAmount MaintenanceSchedule::free_in_partition(const MaintenanceWindow& w, const ClusterState& cluster,
                                                      PartitionIndex p) const {
  ResourceAmount total;
  for (NodeIndex n : cluster.partition(p).nodes) {
    if (covers(w, cluster, n)) total = total + cluster.node(n).free();
  }
  return total;
}

bool MaintenanceSchedule::covers(const MaintenanceWindow& w, const ClusterState& cluster, NodeIndex n) const {
  if (w.all_nodes) return true;
  return w.node_names.contains(cluster.node(n).topology.name);
}

std::vector<NodeIndex> MaintenanceSchedule::nodes(const MaintenanceWindow& w,
                                                  const ClusterState& cluster) const {
  std::vector<NodeIndex> out;
  if (w.all_nodes) {
    for (std::size_t i = 0; i < cluster.node_count(); ++i) out.emplace_back(static_cast<std::uint32_t>(i));
    return out;
  }
  for (const std::string& name : w.node_names) {
    if (auto n = cluster.find_node(name)) out.push_back(*n);
  }
  return out;
}

ResourceAmount MaintenanceSchedule::amount_in_partition(const MaintenanceWindow& w,
                                                        const ClusterState& cluster, PartitionIndex p) const {
  ResourceAmount total;
  for (NodeIndex n : cluster.partition(p).nodes) {
    if (covers(w, cluster, n)) total = total + cluster.node(n).capacity();
  }
  return total;
}

bool MaintenanceSchedule::overlaps_allocation(const ClusterState& cluster, const Allocation& alloc, Time from,
                                              Time to) const {
  for (const MaintenanceWindow& w : windows_) {
    if (w.start >= to || w.end <= from) continue;
    for (const NodeAllocation& a : alloc.nodes) {
      if (covers(w, cluster, a.node)) return true;
    }
  }
  return false;
}

Time MaintenanceSchedule::next_on_allocation(const ClusterState& cluster, const Allocation& alloc, Time from,
                                             const std::string& own) const {
  for (const MaintenanceWindow& w : windows_) {
    if (w.end <= from || (!own.empty() && w.name == own)) continue;
    for (const NodeAllocation& a : alloc.nodes) {
      if (covers(w, cluster, a.node)) return max(w.start, from);
    }
  }
  return Time::never();
}

std::vector<JobId> MaintenanceSchedule::due_for_preemption(const ClusterState& cluster, const Config& config,
                                                           std::span<JobRecord* const> running,
                                                           Time now) const {
  std::vector<JobId> out;
  if (windows_.empty()) return out;
  for (const JobRecord* j : running) {
    if (!config.partitions[j->partition.value()].killable) continue;
    if (next_on_allocation(cluster, j->allocation, now, j->spec.reservation) == now)
      out.push_back(j->spec.id);
  }
  return out;
}

}  // namespace fairway
