// What `fairway queue`, `show job` and `nodes` display, built from the core's records and
// the daemon's tracking: the one place that turns internal state into wire views. Pure.
#pragma once

#include <span>
#include <unordered_map>
#include <vector>

#include "coordinator/core/cluster_state.h"
#include "coordinator/core/job_record.h"
#include "coordinator/core/scheduler.h"
#include "coordinator/daemon/node_registry.h"
#include "coordinator/daemon/stored_job.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

struct JobTracking;

// The one rendering of a job as a view. `ran_on`: for a record read from the store
// (from_row), where it ran by node name (those nodes may be gone from the cluster since);
// otherwise its allocation names its nodes.
wire::JobView job_view(const JobRecord& rec, const JobTracking& t, const Scheduler& scheduler,
                       std::span<const StoredNodeAllocation> ran_on = {});
// A running job whose stop was decided, as Slurm shows it while its processes end (the
// SIGTERM sent, the kill grace running): COMPLETING, with `stopping_as` the state decided
// (cancelled, timed out at its limit, requeued), from that moment on, not RUNNING until
// its agent reports. `now`: the coordinator's clock, against the job's time limit.
void show_stop_in_progress(wire::JobView& v, const JobRecord& rec, Time now);
// The one line that stands for an array's waiting tasks, as squeue folds them ("42_[5-100%10]"):
// `indices` (ascending) the tasks not run on their own, `why` the pass's verdict on the first.
wire::JobView array_view(const ArrayJob& a, const JobTracking& t, const Scheduler& scheduler,
                         std::span<const std::int32_t> indices, const PendingExplanation& why);

// `jobs_on_node`: running jobs per node index, built once per query.
wire::NodeView node_view(const NodeEntry& n, const ClusterState& cluster,
                         const std::vector<JobId>& jobs_on_node);

}  // namespace fairway::daemon
