#include "agent/daemon/launch_placement.h"

#include <algorithm>

namespace fairway::agent {

void place_on_node(LaunchRequest& req, const std::vector<std::int32_t>& cores,
                   const std::vector<std::int32_t>& gpus, const DiscoveredNode& node, bool bind) {
  for (std::int32_t g : gpus) {
    const auto gi = static_cast<std::size_t>(g);
    req.gpu_visible_ids.push_back(gi < node.gpus.size() ? node.gpus[gi].visible_id : std::to_string(g));
  }
  if (!bind) return;
  for (std::int32_t c : cores) {
    for (int pu : node.core_pus[static_cast<std::size_t>(c)]) req.bind_pus.push_back(pu);
  }
}

CgroupLimits cgroup_limits(JobId job, const std::vector<std::int32_t>& pus,
                           const std::vector<std::int32_t>& gpus, std::optional<std::int64_t> memory_bytes,
                           std::int64_t max_pids, const DiscoveredNode& node, const AgentHost& host) {
  CgroupLimits lim;
  lim.job = job;
  lim.cpus = pus;
  lim.memory_bytes = memory_bytes;
  if (max_pids > 0) lim.max_pids = max_pids;
  for (std::size_t g = 0; g < node.gpus.size(); ++g) {
    if (std::find(gpus.begin(), gpus.end(), static_cast<std::int32_t>(g)) != gpus.end()) continue;
    const std::vector<DeviceNumber> devices = host.gpu_devices(g);
    lim.denied_devices.insert(lim.denied_devices.end(), devices.begin(), devices.end());
  }
  return lim;
}

wire::JobProgram holder_program(const std::string& step_relay_path) {
  wire::JobProgram p;
  p.argv = {step_relay_path, "--hold"};
  p.working_dir = "/";
  p.stdout_path = "/dev/null";
  p.stderr_path = "/dev/null";
  return p;
}

}  // namespace fairway::agent
