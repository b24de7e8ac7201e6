// The exact resources granted to a running job: which cores and GPUs on which nodes.
// Core and GPU numbers are node-local (see NodeTopology's numbering).
#pragma once

#include <cstdint>
#include <vector>

#include "shared/base/ids.h"

namespace fairway {

struct NodeAllocation {
  NodeIndex node;
  std::vector<std::int32_t> cores;
  std::vector<std::int32_t> gpus;
  // MiB held on the node: the request's memory for these cores (ResourceRequest::
  // memory_on_node); derived, so it is not stored apart from the request.
  std::int64_t memory_mb = 0;
  bool operator==(const NodeAllocation&) const = default;
};

struct Allocation {
  std::vector<NodeAllocation> nodes;

  std::int64_t total_cores() const {
    std::int64_t n = 0;
    for (const auto& a : nodes) n += static_cast<std::int64_t>(a.cores.size());
    return n;
  }
  std::int64_t total_gpus() const {
    std::int64_t n = 0;
    for (const auto& a : nodes) n += static_cast<std::int64_t>(a.gpus.size());
    return n;
  }
  std::int64_t total_memory_mb() const {
    std::int64_t n = 0;
    for (const auto& a : nodes) n += a.memory_mb;
    return n;
  }
  bool empty() const { return nodes.empty(); }
  bool operator==(const Allocation&) const = default;
};

}  // namespace fairway
