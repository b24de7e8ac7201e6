// Where a launch's processes go on this node, worked out before it is handed to the
// workers: its GPUs' visible ids and its cores' PUs, its cgroup's limits, the holder.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "agent/core/cgroup_plan.h"
#include "agent/daemon/agent_host.h"
#include "agent/os/launch_request.h"
#include "agent/os/topology_discovery.h"
#include "shared/wire/messages.h"

namespace fairway::agent {

// What the launcher needs of the job's cores and GPUs here: the GPUs' visible ids and,
// when `bind`, the cores' PUs (node.core_pus).
void place_on_node(LaunchRequest& req, const std::vector<std::int32_t>& cores,
                   const std::vector<std::int32_t>& gpus, const DiscoveredNode& node, bool bind);

// A job's cgroup limits: its PUs, its memory limit, at most `max_pids` processes (0: no
// limit), and the devices of the node's GPUs it does not hold, as `host` knows them.
CgroupLimits cgroup_limits(JobId job, const std::vector<std::int32_t>& pus,
                           const std::vector<std::int32_t>& gpus, std::optional<std::int64_t> memory_bytes,
                           std::int64_t max_pids, const DiscoveredNode& node, const AgentHost& host);

// What runs on a node of a multi-node job that is not its first: fairway-step --hold,
// which holds the job's cgroup there until the job ends.
wire::JobProgram holder_program(const std::string& step_relay_path);

}  // namespace fairway::agent
