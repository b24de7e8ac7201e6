#include "coordinator/core/node_count_bins.h"

#include <algorithm>
#include <limits>

namespace fairway {

std::int32_t requested_nodes(const ResourceRequest& r, std::int32_t node_cores) {
  if (r.nodes > 0) return r.nodes;
  const std::int64_t cores = r.total_cores();
  const std::int64_t n = node_cores > 0 ? (cores + node_cores - 1) / node_cores : cores;
  return static_cast<std::int32_t>(std::min<std::int64_t>(n, std::numeric_limits<std::int32_t>::max()));
}

std::optional<std::size_t> find_node_bin(const std::vector<NodeBinConfig>& bins, std::int32_t nodes) {
  for (std::size_t i = 0; i < bins.size(); ++i) {
    const NodeBinConfig& b = bins[i];
    if (nodes >= b.min_nodes && (!b.max_nodes || nodes <= *b.max_nodes)) return i;
  }
  return std::nullopt;
}

}  // namespace fairway
