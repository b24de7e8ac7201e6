// Chooses the exact cores and GPUs a job gets on the nodes of its partition, now.
// Best fit: the fullest node that still holds the request, so whole nodes stay whole.
#pragma once

#include <optional>
#include <span>

#include "coordinator/core/cluster_state.h"
#include "shared/model/allocation.h"
#include "shared/model/resources.h"

namespace fairway {

// The allocation, or nullopt when the free resources of the partition cannot hold the
// request right now (too few, or free but scattered over unsuitable nodes).
// A GPU job's cores come from its GPUs' sockets first, so the job stays socket-local.
std::optional<Allocation> place_job(const ClusterState& cluster, PartitionIndex partition,
                                    const ResourceRequest& request);

// A node-shaped request (request.nodes > 0) on exactly these nodes, now; nullopt when one
// of them lacks the free cores or GPUs. Lets node-aware backfill start a job on the nodes
// it planned.
std::optional<Allocation> place_on_nodes(const ClusterState& cluster, const ResourceRequest& request,
                                         std::span<const NodeIndex> nodes);

// Whether the partition could ever hold the request on an empty machine.
bool can_ever_fit(const ClusterState& cluster, PartitionIndex partition,
                  const ResourceRequest& request);

}  // namespace fairway
