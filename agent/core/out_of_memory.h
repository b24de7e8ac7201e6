// Whether the kernel's OOM killer decided how a job ended: one that failed or completed
// while its cgroup counted OOM kills ended out of memory, and its reason says where. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "shared/model/job_state.h"

namespace fairway::agent {

// With `oom_kills` > 0, a failed or completed `state` becomes kOutOfMemory and `reason`
// names the kills, the limit (`memory_limit_bytes`, when it had one) and `node`; returns
// whether it did. Any other end (cancelled, timeout, node_fail) is left as it is.
bool mark_out_of_memory(std::int64_t oom_kills, std::optional<std::int64_t> memory_limit_bytes,
                        std::string_view node, JobState& state, std::string& reason);

}  // namespace fairway::agent
