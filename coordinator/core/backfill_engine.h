// One backfill engine for every policy: jobs in priority order start when they fit now
// without delaying any reservation; the first `depth` that cannot start get a
// reservation. none = strict order, EASY = depth 1, conservative = every job.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "coordinator/core/availability_profile.h"
#include "coordinator/core/cluster_state.h"
#include "coordinator/core/job_record.h"
#include "shared/config/config.h"

namespace fairway {

struct BackfillPolicy {
  BackfillMode mode = BackfillMode::kEasy;
  std::int64_t depth = 1;  // reservations per partition
  // Jobs below this priority never hold a reservation (and so may be delayed).
  double min_priority_for_reservation = -std::numeric_limits<double>::infinity();

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

  // `ordered`: waiting, not held jobs, highest priority first. `running`: running jobs.
  // Fills each job's `why` and reservation; returns the number of reservations made.
  std::size_t run(std::span<JobRecord* const> ordered, std::span<JobRecord* const> running,
                  Time now, const StartFn& start, const GateFn& gate = {});

 private:
  void build_profiles(std::span<JobRecord* const> running, Time now);
  void reserve_everywhere(PartitionIndex p, Time start, Duration d, const Allocation* alloc,
                          ResourceAmount need);

  const ClusterState& cluster_;
  BackfillPolicy policy_;
  std::vector<AvailabilityProfile> profiles_;  // one per partition
  std::vector<std::vector<ResourceRelease>> releases_;
};

}  // namespace fairway
