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

  std::int64_t total_cores() const {
    return nodes == 0 ? cores : static_cast<std::int64_t>(nodes) * cores;
  }
  std::int64_t total_gpus() const {
    return nodes == 0 ? gpus : static_cast<std::int64_t>(nodes) * gpus;
  }
  bool operator==(const ResourceRequest&) const = default;
};

}  // namespace fairway
