// Nodes of one partition bucketed by how many cores they have free, so placement finds a
// best-fit node in O(cores per node) instead of scanning thousands of nodes.
// Not thread-safe; owned by ClusterState.
#pragma once

#include <cstdint>
#include <vector>

#include "shared/base/ids.h"

namespace fairway {

class FreeCoreIndex {
 public:
  // `node_count`: nodes in the whole cluster (indices are global); `max_cores`: the
  // largest node's core count.
  void init(std::size_t node_count, std::int32_t max_cores);
  void insert(NodeIndex node, std::int32_t free_cores);
  void erase(NodeIndex node);
  void update(NodeIndex node, std::int32_t free_cores);
  bool contains(NodeIndex node) const;

  std::int32_t max_cores() const { return static_cast<std::int32_t>(buckets_.size()) - 1; }
  // Nodes with exactly `free` cores free, in no particular order.
  const std::vector<NodeIndex>& with_free(std::int32_t free) const {
    return buckets_[static_cast<std::size_t>(free)];
  }
  // The largest free count any indexed node has (0 when none).
  std::int32_t largest_free() const;

 private:
  static constexpr std::uint32_t kAbsent = 0xffffffffu;
  std::vector<std::vector<NodeIndex>> buckets_;
  std::vector<std::int32_t> bucket_of_;  // per global node; -1 when not indexed
  std::vector<std::uint32_t> slot_of_;   // position within its bucket
};

}  // namespace fairway
