// The machine as the scheduler sees it right now: nodes with which cores, GPUs and memory
// are taken or fenced, and partitions (named node sets) with their free-core indices.
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
#include "shared/config/placement_config.h"
#include "shared/model/allocation.h"
#include "shared/model/socket_fence.h"
#include "shared/model/topology.h"

namespace fairway {

struct NodeState {
  NodeTopology topology;
  // Per node-local core: 0 free, 1 allocated, kOffline withheld while the node is down
  // (so nothing else needs to know about down nodes: their cores are simply not free).
  std::vector<std::uint8_t> core_used;
  std::vector<std::uint8_t> gpu_used;
  std::int32_t free_cores = 0;  // neither used nor fenced
  std::int32_t free_gpus = 0;
  // The node's schedulable memory (its declared memory_mb, or kUntrackedMemoryMb when it
  // declares none) and what running jobs hold of it. A down node has none free.
  std::int64_t memory_capacity_mb = 0;
  std::int64_t used_memory_mb = 0;
  std::vector<PartitionIndex> partitions;  // partitions this node belongs to
  bool up = true;

  static constexpr std::uint8_t kOffline = 2;
  std::int32_t island = -1;  // interned NodeTopology::island; -1: none
  // The node's place in Slurm's host order (hostlist_less): a job's nodes are kept in
  // this order, so its node list, node ids and batch host are those Slurm would give.
  std::uint32_t name_rank = 0;

  // GPU-socket fencing (PlacementConfig::socket_exclusive_gpus): a job holding a GPU keeps
  // the rest of its socket, so those cores and GPUs are fenced: neither used nor free.
  bool socket_exclusive = false;
  std::vector<std::uint8_t> core_fenced;        // per core
  std::vector<std::uint8_t> gpu_fenced;         // per GPU
  std::vector<std::int32_t> socket_used_cores;  // per socket; kept when socket_exclusive
  std::vector<std::int32_t> socket_of_core;     // per core: its socket

  // Never below zero (jobs adopted after a restart may hold more than a node now has), so
  // that a job asking no memory is never held back by memory.
  std::int64_t free_memory_mb() const {
    return up && used_memory_mb < memory_capacity_mb ? memory_capacity_mb - used_memory_mb : 0;
  }
  bool memory_tracked() const { return topology.memory_mb > 0; }
  ResourceAmount free() const { return {free_cores, free_gpus, free_memory_mb()}; }
  ResourceAmount capacity() const {
    return {topology.total_cores(), topology.total_gpus(), memory_capacity_mb};
  }
  // A GPU a new job may take: free, not fenced and, on a socket-exclusive node, on a
  // socket where no other job holds cores (else the GPU job could not keep the socket).
  bool gpu_usable(std::size_t g) const {
    if (gpu_used[g]) return false;
    // gpu_fenced: another job holds a GPU of this one's socket (set only when fenced).
    const SocketOccupancy socket{gpu_fenced[g] != 0,
                                 socket_used_cores[static_cast<std::size_t>(topology.gpus[g].socket)] != 0};
    return socket_fence_allows(socket_exclusive, SocketSlot::kGpu, socket);
  }
  bool core_free(std::size_t c) const { return !core_used[c] && !core_fenced[c]; }
};

// Nodes of one hardware shape in a partition: admission checks iterate the few distinct
// shapes instead of thousands of nodes.
struct NodeShape {
  std::int32_t cores = 0;
  std::vector<std::string> gpu_types;  // one entry per GPU
  std::int64_t memory_mb = 0;          // NodeState::memory_capacity_mb
  std::int64_t count = 0;
};

struct PartitionState {
  std::string name;
  std::vector<NodeIndex> nodes;
  ResourceAmount capacity;
  ResourceAmount free;
  std::int32_t largest_node_cores = 0;
  std::int32_t largest_node_gpus = 0;
  // Some node here declares its memory: only then is memory worth planning for.
  bool memory_tracked = false;
  FreeCoreIndex free_index;
  std::vector<NodeShape> shapes;
  std::vector<PartitionIndex> overlapping;  // partitions sharing a node, itself included
  PlacementConfig placement;
  // Interned islands with nodes here, and each one's cores: a job larger than every
  // island may span islands even where one island is required.
  std::vector<std::int32_t> islands;
  std::vector<std::int64_t> island_cores;
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
  // `placement.socket_exclusive_gpus` makes the partition's GPU nodes fence GPU sockets
  // (for every partition holding them: the rule is the node's).
  Result<PartitionIndex> add_partition(const std::string& name, const std::vector<std::string>& node_names,
                                       const PlacementConfig& placement = {});

  std::size_t node_count() const { return nodes_.size(); }
  const NodeState& node(NodeIndex n) const { return nodes_[n.value()]; }
  std::size_t partition_count() const { return partitions_.size(); }
  const PartitionState& partition(PartitionIndex p) const { return partitions_[p.value()]; }
  std::optional<PartitionIndex> find_partition(const std::string& name) const;
  std::optional<NodeIndex> find_node(const std::string& name) const;

  // Marks the allocation's cores, GPUs and memory taken (cores and GPUs must be free) or
  // free again. On a
  // socket-exclusive node the rest of each socket where it holds a GPU is fenced while
  // it runs (no other job may hold anything there when it starts).
  void allocate(const Allocation& a);
  void release(const Allocation& a);

  // How much of partition p's free resources an allocation takes: its cores, GPUs and
  // memory on p's nodes plus what it fences there. This is what its end gives back.
  ResourceAmount amount_in_partition(const Allocation& a, PartitionIndex p) const;

 private:
  void set_node_free(NodeIndex n, ResourceAmount before);
  void rebuild_partition(PartitionIndex p);
  void rebuild_overlaps();
  void rank_names();
  void set_fence(NodeState& ns, const NodeAllocation& na, bool fenced);
  NodeState make_node(NodeTopology topology);
  std::vector<std::string> island_names_;
  std::vector<NodeState> nodes_;
  std::vector<PartitionState> partitions_;
  std::unordered_map<std::string, NodeIndex> node_by_name_;
};

}  // namespace fairway
