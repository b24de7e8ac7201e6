// Coordinator start-up as a function: the store read back into the scheduler (queue,
// running jobs, fair-share, reservations) and into a value the service then keeps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "coordinator/core/scheduler.h"
#include "coordinator/daemon/client_tokens.h"
#include "coordinator/daemon/finished_jobs.h"
#include "coordinator/daemon/job_store.h"
#include "coordinator/daemon/job_tracking.h"
#include "coordinator/daemon/node_registry.h"
#include "shared/base/result.h"
#include "shared/config/config.h"

namespace fairway::daemon {

// What recovery gives the service beside what it put into the scheduler.
struct RecoveredState {
  explicit RecoveredState(const Config& config) : finished_jobs(config) {}

  FinishedJobs finished_jobs;                               // the newest ended jobs' views
  std::unordered_map<std::uint64_t, JobTracking> tracking;  // per job waiting or running
  // Running jobs whose nodes are not known yet: adopted as their agents register.
  std::unordered_map<std::uint64_t, StoredJob> awaiting_nodes;
  // Drains stored for nodes, applied as each node is added (now or when it registers).
  std::unordered_map<std::string, NodeAdminState> stored_drains;
  NodeRegistry nodes;   // declared or remembered nodes, not registered yet
  ClientTokens tokens;  // submit tokens a retry could still send
  // Arrays a task of which had started: their BEGIN mail went out (JobNotices).
  std::unordered_set<std::uint64_t> arrays_begin_mailed;
  // For the log line: jobs restored waiting, running, finished.
  std::size_t waiting = 0, running = 0, finished = 0;
};

// Reads `store` into `scheduler` (between its begin_restore and end_restore) and returns
// the rest. `system_user` names the reasons set on nodes; `mono`: the monotonic clock, from
// which restored running jobs wait for their agents. Refuses a store it cannot read whole.
Result<RecoveredState> recover_from(JobStore& store, const Config& config, Scheduler& scheduler,
                                    const ReasonSetter& system_user, Time now, Time mono);

// A running job read from the store, placed back on its nodes; false if one of them is
// not known yet. One the store contradicts (cores already held) ends: its tracking goes,
// its view is kept in `finished`.
bool adopt_restored(const StoredJob& row, Scheduler& scheduler,
                    std::unordered_map<std::uint64_t, JobTracking>& tracking, FinishedJobs& finished,
                    Time now, Time mono);
// A node's stored drain, onto its entry.
void apply_stored_drain(NodeEntry& n, const NodeAdminState& a);
// What a stored run charges fair-share: its cores, memory and GPUs by type (of the nodes
// `cluster` knows).
StoredUsageRun usage_run_of(const ClusterState& cluster, const StoredJob& s, const std::string& account,
                            const std::string& user, const std::string& reservation,
                            const ResourceRequest& resources);

}  // namespace fairway::daemon
