// Human renderings of nodes: the `fairway nodes` table and `fairway show node` detail.
// Pure functions of the coordinator's reply (times in the local zone); thread-safe.
#pragma once

#include <string>

#include "shared/wire/messages.h"

namespace fairway::cli {

// NODELIST STATE CPUS(A/T) GPUS(A/T) PARTITIONS REASON, one row per node.
std::string render_nodes(const wire::NodeQueryReply& reply);

// sinfo -s: one row per partition with nodes, cores and GPUs counted allocated/idle/other/
// total (other: on nodes down, drained or draining) and the partition's nodes as a hostlist.
// A node busy with any job counts as allocated.
std::string render_partition_summary(const wire::NodeQueryReply& reply);

// Every field of the node, one "Key: value" per line.
std::string render_node_detail(const wire::NodeView& node);

}  // namespace fairway::cli
