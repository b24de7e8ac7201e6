// The config's reservations resolved to node indices: which nodes are taken from everyone
// (a maintenance) or from everyone but a project's --reservation jobs (a project
// reservation) when, and which running killable jobs a window must kill. Not thread-safe:
// owned by the Scheduler, read by one backfill pass. Pure: time is an argument.
#pragma once

#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include "coordinator/core/cluster_state.h"
#include "coordinator/core/job_record.h"
#include "shared/base/ids.h"
#include "shared/base/time.h"
#include "shared/config/config.h"

namespace fairway {

struct MaintenanceWindow {
  std::string name;
  Time start;
  Time end;  // a cancelled project reservation ends when it was cancelled
  // A project reservation's account (Titan): its --reservation jobs run in it, everyone
  // else is kept out as by a maintenance. Empty for a maintenance.
  std::string account;
  bool all_nodes = false;
  // When !all_nodes; resolved on each query, so nodes that register later are covered too.
  std::unordered_set<std::string> node_names;
};

class MaintenanceSchedule {
 public:
  MaintenanceSchedule() = default;
  explicit MaintenanceSchedule(const Config& config);

  bool empty() const { return windows_.empty(); }
  std::span<const MaintenanceWindow> windows() const { return windows_; }
  const MaintenanceWindow* find(const std::string& name) const;
  // A project reservation given back early: its nodes return to everyone at `at`.
  void cancel(const std::string& name, Time at);
  // Free now on the window's nodes in partition p: what an active project reservation
  // withholds from everyone else (its own jobs hold the rest until it ends).
  ResourceAmount free_in_partition(const MaintenanceWindow& w, const ClusterState& cluster,
                                   PartitionIndex p) const;

  bool covers(const MaintenanceWindow& w, const ClusterState& cluster, NodeIndex n) const;
  // What window w takes from partition p: the capacity of its nodes there.
  ResourceAmount amount_in_partition(const MaintenanceWindow& w, const ClusterState& cluster,
                                     PartitionIndex p) const;
  // The nodes of window w that the cluster knows.
  std::vector<NodeIndex> nodes(const MaintenanceWindow& w, const ClusterState& cluster) const;

  // True when some node of the allocation is under a maintenance overlapping [from, to).
  bool overlaps_allocation(const ClusterState& cluster, const Allocation& alloc, Time from, Time to) const;
  // The start of the first window on the allocation's nodes that is under way at or
  // begins after `from`, other than the one named `own` (a job's own reservation);
  // Time::never() when none.
  Time next_on_allocation(const ClusterState& cluster, const Allocation& alloc, Time from,
                          const std::string& own = {}) const;

  // Running killable jobs on a node under maintenance at `now`: they must be killed
  // (and requeued).
  std::vector<JobId> due_for_preemption(const ClusterState& cluster, const Config& config,
                                        std::span<JobRecord* const> running, Time now) const;

 private:
  std::vector<MaintenanceWindow> windows_;  // by start
};

}  // namespace fairway
