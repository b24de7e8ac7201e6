#include "agent/daemon/job_usage.h"

#include "agent/core/out_of_memory.h"
#include "shared/base/log.h"

namespace fairway::agent {

JobUsage collect_usage(AgentHost& host, JobId job, JobState& state, std::string& reason,
                       std::optional<std::int64_t> memory_limit, std::string_view node) {
  const JobUsage usage = host.cgroup_usage(job);
  (void)mark_out_of_memory(usage.oom_kills, memory_limit, node, state, reason);
  if (auto st = host.remove_cgroup(job); !st) {
    log_event(
        LogLevel::kWarning, "cgroup_cleanup_failed",
        {{"job", std::to_string(job.value())}, {"node", std::string(node)}, {"error", st.error().message}});
  }
  return usage;
}

}  // namespace fairway::agent
