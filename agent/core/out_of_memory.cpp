#include "agent/core/out_of_memory.h"

namespace fairway::agent {

bool mark_out_of_memory(std::int64_t oom_kills, std::optional<std::int64_t> memory_limit_bytes,
                        std::string_view node, JobState& state, std::string& reason) {
  if (oom_kills <= 0 || (state != JobState::kFailed && state != JobState::kCompleted)) return false;
  state = JobState::kOutOfMemory;
  reason = "out of memory: the kernel killed " + std::to_string(oom_kills) + " of its processes" +
           (memory_limit_bytes ? " at its limit of " + std::to_string(*memory_limit_bytes >> 20) + " MiB"
                               : std::string()) +
           " on node " + std::string(node);
  return true;
}

}  // namespace fairway::agent
