// Which running jobs a waiting higher-tier job stops to start (owner partitions, seed 004):
// the fewest victims, lowest priority first, and only as many cores and GPUs as it needs.
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
// their exempt time), cheapest to lose first. Tries the victims of each node on its own
// (one node's victims are usually the fewest) and all of them together, keeps the
// choice with the fewest victims (then the lowest summed priority), and drops every
// victim the owner does not need. On a choice, `cluster` is left with the victims
// released and the owner's allocation taken, so later owners in the same pass plan
// around it; the caller restores it. Without one, `cluster` is unchanged.
std::optional<VictimChoice> choose_victims(ClusterState& cluster, const JobRecord& owner,
                                           std::span<JobRecord* const> candidates);

}  // namespace fairway
