// Chooses the exact cores, GPUs and memory a job gets on the nodes of its partition, now.
// Best fit: the fullest node that still holds the request, so whole nodes stay whole.
// Pure functions of the ClusterState; the partition's PlacementConfig decides the unit
// (core, socket, node), GPU-socket fencing and island placement.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "coordinator/core/cluster_state.h"
#include "coordinator/core/job_record.h"
#include "coordinator/core/node_constraints.h"
#include "shared/model/allocation.h"
#include "shared/model/resources.h"

namespace fairway {

// The allocation, or nullopt when the free resources of the partition cannot hold the
// request right now (too few, or free but scattered over unsuitable nodes or islands).
// A GPU job's cores come from its GPUs' sockets first, so the job stays socket-local; on
// a socket-exclusive node it gets only GPUs whose socket nobody else uses, and other jobs
// never get fenced cores. `allow_multi_island` (JobSpec::allow_multi_island) lets a job
// span islands where the partition would have it wait for one.
// `allowed` (node_constraints.h): only these nodes, for a job with -w/-x/-C.
std::optional<Allocation> place_job(const ClusterState& cluster, PartitionIndex partition,
                                    const ResourceRequest& request, bool allow_multi_island = false,
                                    const NodeMask* allowed = nullptr);
// A waiting job as it is: its partition, request, island override and allowed nodes.
std::optional<Allocation> place_job(const ClusterState& cluster, const JobRecord& job);

// A node-shaped request (request.nodes > 0) on exactly these nodes, now; nullopt when one
// of them lacks the free cores or GPUs. Lets node-aware backfill start a job on the nodes
// it planned.
std::optional<Allocation> place_on_nodes(const ClusterState& cluster, const ResourceRequest& request,
                                         std::span<const NodeIndex> nodes);

// Sets each node's memory_mb from the request and the cores there: what placement does,
// and what a restored allocation (stored without memory) is given back.
void assign_memory(Allocation& alloc, const ResourceRequest& request);

}  // namespace fairway
