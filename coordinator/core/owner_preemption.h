// Owner partitions (Palmetto, seed 004): the partitions' tiers, and the pass's choice of
// running victims of lower, preemptable tiers for waiting jobs of higher ones.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "coordinator/core/cluster_state.h"
#include "coordinator/core/job_record.h"
#include "coordinator/core/pass_result.h"
#include "coordinator/core/preemption_host.h"
#include "shared/base/result.h"
#include "shared/config/config.h"

namespace fairway {

// Victims keep their cores until their processes are confirmed gone (the owner's
// victims_stopping counts them down), so the owner starts on cores that are really free,
// and no other job slips in before it: higher tiers come first in every pass.
class OwnerPreemption {
 public:
  OwnerPreemption() = default;
  // From the partitions as the scheduler indexes them (PartitionIndex i is partitions[i]).
  explicit OwnerPreemption(std::span<const PartitionConfig> partitions);

  // The partition's priority_tier: the pass ranks higher tiers first.
  std::int32_t tier(PartitionIndex p) const { return tier_[p.value()]; }
  // Some partition is preemptable by a higher tier.
  bool configured() const { return configured_; }

  // Victims for the waiting jobs (`ordered`, tier then priority) that wait only for room
  // held by lower preemptable tiers. `running` is read before anything changes through
  // `host`. Orders go to result.preempting; a victim that this very pass started goes back
  // unstarted (out of result.started), and an owner whose victims all did starts.
  void preempt_for_owners(std::span<JobRecord* const> ordered, std::span<JobRecord* const> running,
                          std::span<const PartitionConfig> partitions, ClusterState& cluster, Time now,
                          PassResult& result, PreemptionHost& host) const;
  // A victim that stops, for whatever reason, no longer holds up its owner (the job it was
  // chosen for, nullptr when that one is gone).
  static void victim_gone(JobRecord& victim, JobRecord* owner);
  // The processes of victim `id` (PassResult::preempting) are gone: it goes back to the
  // queue through `host`, or ends as preempted when it may not be requeued. Returns the
  // state it is in now (pending or preempted); a job not being preempted is an error.
  static Result<JobState> stop_victim(JobId id, Time now, PreemptionHost& host);

 private:
  std::vector<std::int32_t> tier_;  // by PartitionIndex
  bool configured_ = false;
};

}  // namespace fairway
