// What a job asks for: a core count spread freely over nodes (sbatch -n), or a number of
// nodes each holding the same cores and GPUs (sbatch -N with per-node counts).
#pragma once

#include <cstdint>
#include <string>

namespace fairway {

struct ResourceRequest {
  std::int32_t nodes = 0;  // 0: the scheduler chooses how many nodes (cores spread freely)
  std::int32_t cores = 1;  // nodes == 0: total cores; nodes > 0: cores on each node
  std::int32_t gpus = 0;   // nodes == 0: total GPUs; nodes > 0: GPUs on each node
  std::string gpu_type;    // empty: any GPU model
  // --mem (on each node) or --mem-per-cpu (per allocated core), in MiB; 0: not asked.
  // Scheduled on nodes that declare their memory; the job's memory limit on every node.
  std::int64_t memory_per_node_mb = 0;
  std::int64_t memory_per_cpu_mb = 0;

  std::int64_t total_cores() const { return nodes == 0 ? cores : static_cast<std::int64_t>(nodes) * cores; }
  std::int64_t total_gpus() const { return nodes == 0 ? gpus : static_cast<std::int64_t>(nodes) * gpus; }
  // What the job holds on a node where it has `cores_on_node` cores.
  std::int64_t memory_on_node(std::int64_t cores_on_node) const {
    return memory_per_node_mb > 0 ? memory_per_node_mb : memory_per_cpu_mb * cores_on_node;
  }
  // Over all its nodes, counting one node when the scheduler chooses how many (--mem
  // with -n): a lower bound that planning uses; the allocation has the exact amount.
  std::int64_t total_memory_mb() const {
    if (nodes > 0) return static_cast<std::int64_t>(nodes) * memory_on_node(cores);
    return memory_on_node(cores);
  }
  bool operator==(const ResourceRequest&) const = default;
};

}  // namespace fairway
