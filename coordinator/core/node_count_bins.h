// Titan's node-count bins (seed 000): which bin a request falls in. The bin's aging boost
// feeds priority, its max_time is checked at submission and its running cap by RunningCaps.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "shared/config/config.h"
#include "shared/model/resources.h"

namespace fairway {

// Nodes a request occupies: `nodes` when it names them; else its cores over one node's
// cores (`node_cores`, the partition's largest node), rounded up, so a 17-core job on
// 16-core nodes counts as 2. With no node size known (0) the core count itself.
std::int32_t requested_nodes(const ResourceRequest& r, std::int32_t node_cores);

// The bin whose [min_nodes, max_nodes] holds `nodes`; none if no bin does.
std::optional<std::size_t> find_node_bin(const std::vector<NodeBinConfig>& bins, std::int32_t nodes);

}  // namespace fairway
