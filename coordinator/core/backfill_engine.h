// One backfill engine for every policy: jobs in priority order start when they fit now
// without delaying any reservation; the first `depth` that cannot start get a
// reservation. none = strict order, EASY = depth 1, conservative = every job. Optionally
// preceded by Slurm's main loop. Not thread-safe: one pass owns one engine.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "coordinator/core/availability_profile.h"
#include "coordinator/core/cluster_state.h"
#include "coordinator/core/job_record.h"
#include "coordinator/core/maintenance_schedule.h"
#include "coordinator/core/node_availability.h"
#include "shared/config/config.h"

namespace fairway {

struct BackfillPolicy {
  BackfillMode mode = BackfillMode::kEasy;
  std::int64_t depth = 1;  // reservations per partition
  // Jobs below this priority never hold a reservation (and so may be delayed).
  double min_priority_for_reservation = -std::numeric_limits<double>::infinity();
  // A job eligible this long holds a reservation beyond `depth` and the threshold.
  std::optional<Duration> reserve_after_wait;
  std::int64_t starving_depth = 1;  // how many such jobs per partition (the first in priority order)
  // Slurm's main loop first (see SchedulerConfig::main_loop).
  bool main_loop = false;
  // Jobs of one user / one partition the backfill loop looks at; the rest are skipped.
  std::int64_t max_jobs_per_user = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_jobs_per_partition = std::numeric_limits<std::int64_t>::max();
  // Node-shaped jobs get exact, node-pinned reservations (NodeAvailability) up to this
  // many per pass; later ones are planned on partition totals, as core-count jobs are.
  // Each such query scans the partition's nodes, and only the nearest reservations
  // decide what may backfill now; the far ones are planned again next pass.
  std::int64_t node_aware_reservations_per_pass = 64;
  // SchedulerConfig::backfill_order = shortest_first: jobs that can hold no reservation
  // are tried after the queue, shortest planned run first (EASY++ with predictions).
  bool shortest_first = false;

  static BackfillPolicy from_config(const SchedulerConfig& c);
};

class BackfillEngine {
 public:
  // Starts a job on the allocation chosen; called for each job the engine starts.
  using StartFn = std::function<void(JobRecord&, Allocation)>;
  // A policy that may forbid a start (MAXPS); such a job is skipped, holds no reservation
  // and holds nobody else back. Empty: no gate.
  using GateFn = std::function<std::optional<PendingReason>(const JobRecord&)>;

  BackfillEngine(const ClusterState& cluster, BackfillPolicy policy);
  // Maintenance reservations take their nodes from every partition; a killable partition
  // (its config, indexed like the cluster's partitions) may run into them. Both must
  // outlive the engine.
  void set_maintenance(const MaintenanceSchedule& maintenance, std::span<const PartitionConfig> partitions);

  // `ordered`: waiting, not held jobs, highest priority first. `running`: running jobs.
  // Fills each job's `why` and reservation; returns the number of reservations made.
  std::size_t run(std::span<JobRecord* const> ordered, std::span<JobRecord* const> running, Time now,
                  const StartFn& start, const GateFn& gate = {});

 private:
  void build_profiles(std::span<JobRecord* const> running, Time now);
  // Slurm's main loop: in priority order, start what fits now; a job that cannot start
  // keeps lower-priority jobs wanting overlapping resources from starting in this loop.
  // Returns the jobs left for the backfill loop, in the same order.
  std::vector<JobRecord*> run_main_loop(std::span<JobRecord* const> ordered, Time now, const StartFn& start,
                                        const GateFn& gate);
  // True when the job is over the backfill loop's per-user or per-partition cap; then
  // its reason says which.
  bool over_backfill_cap(JobRecord& j);
  void start_now(JobRecord& j, Allocation alloc, Time now, const StartFn& start);
  void ensure_node_availability(Time now);
  // Maintenance (maintenance_engine.cpp): the windows in the profiles and node model, when
  // a killable job's resources come back, whether a job may start on an allocation now.
  void add_maintenance_to_profiles(Time now);
  void add_maintenance_to_nodes(Time now);
  Time release_time(const JobRecord& j, Time now) const;
  bool killable(PartitionIndex p) const;
  // Why the job must wait for a maintenance now (not where it would start), if it must.
  bool maintenance_delays(const JobRecord& j, Time now) const;
  bool maintenance_forbids(const JobRecord& j, const Allocation& alloc, Time now) const;
  // Placement on a copy of the machine whose nodes under a forbidding maintenance are
  // down. The copy costs O(cores); it is made only when placement first chose such a node.
  std::optional<Allocation> place_avoiding_maintenance(const JobRecord& j, Time now) const;
  // The span the node model must find free: a killable job only needs its nodes until the
  // next maintenance on them.
  Duration node_check_span(const JobRecord& j, const Allocation& alloc, Time now) const;
  // What a start holds in the plan: its planned run (a prediction, else its limit), cut
  // by node_check_span. The node checks for maintenance still use the limit.
  Duration planned_span(const JobRecord& j, const Allocation& alloc, Time now) const;
  NodeAvailability::Slot earliest_on_nodes(const JobRecord& j, Time now) const;
  void reserve_everywhere(PartitionIndex p, Time start, Duration d, const Allocation* alloc,
                          ResourceAmount need);

  const ClusterState& cluster_;
  BackfillPolicy policy_;
  std::vector<AvailabilityProfile> profiles_;  // one per partition
  std::vector<std::vector<ResourceRelease>> releases_;
  std::unordered_map<std::string, std::int64_t> backfill_jobs_by_user_;
  std::vector<std::int64_t> backfill_jobs_by_partition_;
  // Per-node model for node-shaped jobs, built on demand from these.
  NodeAvailability node_availability_;
  bool node_availability_built_ = false;
  std::int64_t node_aware_reservations_ = 0;
  std::vector<const JobRecord*> running_at_start_;
  std::vector<const JobRecord*> started_;
  const MaintenanceSchedule* maintenance_ = nullptr;
  std::span<const PartitionConfig> partition_configs_;
  // Per maintenance window, what it takes from each partition (computed once a pass).
  std::vector<std::vector<ResourceAmount>> maintenance_amounts_;
  bool maintenance_in(PartitionIndex p, Time from, Time to) const;
};

}  // namespace fairway
