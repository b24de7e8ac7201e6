// Which nodes a job may run on beyond its partition: sbatch -w (only these), -x (never
// these) and -C (node features, "a&b" or "a|b"). Pure functions of the cluster and the
// spec; the mask they give is what placement's node scope admits.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "coordinator/core/cluster_state.h"
#include "shared/base/result.h"
#include "shared/model/job_spec.h"

namespace fairway {

// One flag per NodeIndex of the cluster: 1 where the job may run.
using NodeMask = std::vector<char>;

bool has_node_constraints(const JobSpec& spec);

// Whether `features` satisfy `constraint`: one feature, or features joined by '&' (all)
// or by '|' (any), not both. Errors name the constraint and what is wrong with it.
Result<bool> features_match(const std::vector<std::string>& features, std::string_view constraint);

// The nodes of `partition` the job may use, or an error naming the option and value:
// a -w node that is not in the partition, a malformed -C, or nothing left at all.
// Nodes that are not in the cluster yet (-x, or -w in a cluster whose agents register)
// are not errors for -x; for -w they are, when `strict` (a new submission).
Result<NodeMask> allowed_nodes(const ClusterState& cluster, PartitionIndex partition, const JobSpec& spec,
                               bool strict);

// Whether the allowed nodes, empty, could ever hold the request (as can_ever_fit for a
// partition); an error says what they hold.
Status fits_on_nodes(const ClusterState& cluster, const NodeMask& allowed, const ResourceRequest& r);

}  // namespace fairway
