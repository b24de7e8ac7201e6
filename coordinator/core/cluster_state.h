// The machine as the scheduler sees it right now: nodes with which cores and GPUs are
// taken, and partitions (named node sets) with their free-core indices.
// Not thread-safe; owned by the Scheduler. Pure data, no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "coordinator/core/free_core_index.h"
#include "coordinator/core/resource_amount.h"
#include "shared/base/ids.h"
#include "shared/base/result.h"
#include "shared/model/allocation.h"
#include "shared/model/topology.h"

namespace fairway {

struct NodeState {
  NodeTopology topology;
  // Per node-local core: 0 free, 1 allocated, kOffline withheld while the node is down
  // (so nothing else needs to know about down nodes: their cores are simply not free).
  std::vector<std::uint8_t> core_used;
  std::vector<std::uint8_t> gpu_used;
  std::int32_t free_cores = 0;
  std::int32_t free_gpus = 0;
  std::vector<PartitionIndex> partitions;  // partitions this node belongs to
  bool up = true;

  static constexpr std::uint8_t kOffline = 2;

  ResourceAmount free() const { return {free_cores, free_gpus}; }
  ResourceAmount capacity() const { return {topology.total_cores(), topology.total_gpus()}; }
};

// Nodes of one hardware shape in a partition: admission checks iterate the few distinct
// shapes instead of thousands of nodes.
struct NodeShape {
  std::int32_t cores = 0;
  std::vector<std::string> gpu_types;  // one entry per GPU
  std::int64_t count = 0;
};

struct PartitionState {
  std::string name;
  std::vector<NodeIndex> nodes;
  ResourceAmount capacity;
  ResourceAmount free;
  std::int32_t largest_node_cores = 0;
  std::int32_t largest_node_gpus = 0;
  FreeCoreIndex free_index;
  std::vector<NodeShape> shapes;
  std::vector<PartitionIndex> overlapping;  // partitions sharing a node, itself included
};

class ClusterState {
 public:
  NodeIndex add_node(NodeTopology topology);
  // A node that joins after the partitions exist (an agent registering): it becomes a
  // member of `partitions`, whose capacities and indices are rebuilt.
  NodeIndex add_node_later(NodeTopology topology, const std::vector<PartitionIndex>& partitions);
  // A down node keeps its running jobs' cores allocated; its free cores (and those its
  // jobs release while it is down) are withheld until it is up again.
  void set_node_up(NodeIndex n, bool up);
  // Node names must already be added; each partition is a set of nodes.
  Result<PartitionIndex> add_partition(const std::string& name,
                                       const std::vector<std::string>& node_names);

  std::size_t node_count() const { return nodes_.size(); }
  const NodeState& node(NodeIndex n) const { return nodes_[n.value()]; }
  std::size_t partition_count() const { return partitions_.size(); }
  const PartitionState& partition(PartitionIndex p) const { return partitions_[p.value()]; }
  std::optional<PartitionIndex> find_partition(const std::string& name) const;
  std::optional<NodeIndex> find_node(const std::string& name) const;

  // Marks the allocation's cores and GPUs taken (they must be free) or free again.
  void allocate(const Allocation& a);
  void release(const Allocation& a);

  // How much of an allocation lies on the nodes of partition p.
  ResourceAmount amount_in_partition(const Allocation& a, PartitionIndex p) const;

 private:
  void set_node_free(NodeIndex n, ResourceAmount before);
  void rebuild_partition(PartitionIndex p);
  void rebuild_overlaps();
  std::vector<NodeState> nodes_;
  std::vector<PartitionState> partitions_;
  std::unordered_map<std::string, NodeIndex> node_by_name_;
};

}  // namespace fairway
