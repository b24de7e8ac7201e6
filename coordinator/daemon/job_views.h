// What `fairway queue`, `show job` and `nodes` display, built from the core's records and
// the daemon's tracking: the one place that turns internal state into wire views. Pure.
#pragma once

#include <unordered_map>
#include <vector>

#include "coordinator/core/cluster_state.h"
#include "coordinator/core/scheduler.h"
#include "coordinator/core/job_record.h"
#include "coordinator/daemon/node_registry.h"
#include "coordinator/daemon/stored_job.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

struct JobTracking;

wire::JobView job_view(const JobRecord& rec, const JobTracking& t, const Scheduler& scheduler);

// What the store keeps of a job, with its decoded submit request: its tracking (paths,
// exit, usage, reason) and, once it ended, its final view (recovery and `history`).
JobTracking stored_tracking(const StoredJob& s, const wire::SubmitRequest& request);
wire::JobView stored_final_view(const StoredJob& s, const JobSpec& spec, const JobTracking& t,
                                const Scheduler& scheduler);

// `jobs_on_node`: running jobs per node index, built once per query.
wire::NodeView node_view(const NodeEntry& n, const ClusterState& cluster,
                         const std::vector<JobId>& jobs_on_node);

}  // namespace fairway::daemon
