// How an agent is configured (fairway-agent's flags and agent.toml): its spool, its timers,
// the coordinator's lease, and how jobs are held to what they were given on this node.
#pragma once

#include <cstdint>
#include <string>

#include "agent/os/job_cgroups.h"
#include "shared/base/time.h"

namespace fairway::agent {

struct AgentOptions {
  std::string spool_dir;
  Duration heartbeat_interval = Duration::seconds(5);
  Duration kill_grace = Duration::seconds(30);
  // Silent coordinator for longer than this: stop every job (self-fencing), so that the
  // coordinator may start them elsewhere without running them twice.
  Duration coordinator_lease = Duration::seconds(60);
  bool allow_root_jobs = false;
  // Host discovery binds jobs to their cores for real; a --topology model cannot.
  bool apply_binding = true;
  std::string version = "0.1.0";
  // Per-job cgroups (only with apply_binding: a --topology model's cores are not this
  // machine's). require_enforcement: refuse to start without them.
  CgroupOptions cgroups;
  bool require_enforcement = false;
  std::int64_t max_pids_per_job = 0;  // 0: no limit
  // fairway-step: runs a node's share of a job step, and holds the job's cgroup on the
  // other nodes of a multi-node job (fairway-step --hold). Empty: beside fairway-agent.
  std::string step_relay_path;
};

}  // namespace fairway::agent
