// What a job used, read from its cgroup as the job ends (its cgroup then goes), and how an
// OOM kill the cgroup saw turns the job's end into out_of_memory.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "agent/daemon/agent_host.h"
#include "shared/model/job_state.h"

namespace fairway::agent {

// What the job's cgroup counted; its cgroup is removed (a failure is logged). OOM kills
// turn a failure (or a completion) into out_of_memory, with `reason` saying so.
JobUsage collect_usage(AgentHost& host, JobId job, JobState& state, std::string& reason,
                       std::optional<std::int64_t> memory_limit, std::string_view node);

}  // namespace fairway::agent
