// Which running jobs a waiting higher-tier job stops to start (owner partitions, seed 004):
// the fewest victims, then the lowest summed priority, and only as many as it needs.
// Pure: works on the ClusterState it is given, with place_job as the judge of "fits".
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "coordinator/core/cluster_state.h"
#include "coordinator/core/job_record.h"
#include "shared/model/allocation.h"

namespace fairway {

struct VictimChoice {
  std::vector<JobRecord*> victims;
  Allocation allocation;  // where the owner would run once they are stopped
};

// `candidates` are running jobs the owner may preempt (lower tier, preemptable, past
// their exempt time), cheapest to lose first. The choice has the fewest victims, then the
// lowest summed priority, then the earliest in the candidates' order, counting cores,
// GPUs and memory: an exact search (victim_search.h) over every single victim, then
// every pair, and so on (per node for a one-node owner, over the partition for any other),
// within a budget; when that runs out, the better of its find and the greedy tries
// (release in order until the owner fits, then drop the victims it does not need). On a
// choice, `cluster` is left with the victims released and the owner's allocation taken,
// so later owners in the same pass plan around it; the caller restores it. Without one,
// `cluster` is unchanged.
std::optional<VictimChoice> choose_victims(ClusterState& cluster, const JobRecord& owner,
                                           std::span<JobRecord* const> candidates);

}  // namespace fairway
