// What a request asks of a partition as a whole, apart from where it lands now: whether it
// could ever fit, its whole-node form, what it is expected to take, and the words refusals
// use. Pure functions of the partition's shapes; thread-safe.
#pragma once

#include <optional>
#include <string>

#include "coordinator/core/cluster_state.h"
#include "coordinator/core/resource_amount.h"
#include "shared/model/resources.h"

namespace fairway {

// Whether the partition could ever hold the request on an empty machine.
bool can_ever_fit(const ClusterState& cluster, PartitionIndex partition, const ResourceRequest& request);

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
