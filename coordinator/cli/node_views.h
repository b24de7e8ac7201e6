// Human renderings of nodes: the `fairway nodes` table and `fairway show node` detail.
// Pure functions of the coordinator's reply (times in the local zone); thread-safe.
#pragma once

#include <string>

#include "shared/wire/messages.h"

namespace fairway::cli {

// NODELIST STATE CPUS(A/T) GPUS(A/T) PARTITIONS, one row per node.
std::string render_nodes(const wire::NodeQueryReply& reply);

// Every field of the node, one "Key: value" per line.
std::string render_node_detail(const wire::NodeView& node);

}  // namespace fairway::cli
