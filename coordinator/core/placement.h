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
#include "coordinator/core/resource_amount.h"
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
                                    const ResourceRequest& request,
                                    bool allow_multi_island = false,
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

// Whether the partition could ever hold the request on an empty machine.
bool can_ever_fit(const ClusterState& cluster, PartitionIndex partition,
                  const ResourceRequest& request);

// For refusals: " with 4096 MiB of memory per node" (or "per core"), "" when the
// request asks no memory; ", the largest node 192000 MiB of memory", "" when no node of
// the partition declares its memory.
std::string describe_memory_request(const ResourceRequest& r);
std::string describe_node_memory(const PartitionState& partition);

// When no node of the partition has GPUs of `type` (non-empty), the types it has, as
// "types: a100, v100" or "it has no GPUs"; nullopt when some node has that type.
std::optional<std::string> unknown_gpu_type(const PartitionState& partition, const std::string& type);

// The request as whole nodes of the partition's largest node: `nodes` of them, each with
// all its cores (allocation_unit = "node", whole_nodes_above_node_size). A request that
// states no node count gets as many nodes as its cores (and GPUs) need.
ResourceRequest whole_node_request(const PartitionState& partition, const ResourceRequest& r);

// What placing the request is expected to take from the partition's free pool: whole
// sockets under allocation_unit = "socket", and each fenced GPU socket's cores and GPUs.
// Equal to the request when neither applies. Exact when the partition's nodes share one
// shape; on mixed shapes an estimate (from the smallest socket), so the backfill engine
// plans with it but checks the real allocation before a start.
ResourceAmount expected_footprint(const ClusterState& cluster, PartitionIndex partition,
                                  const ResourceRequest& request);

}  // namespace fairway
