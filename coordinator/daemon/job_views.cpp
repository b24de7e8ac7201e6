#include "coordinator/daemon/job_views.h"

#include <algorithm>

#include "coordinator/daemon/coordinator_service.h"
#include "shared/base/duration_format.h"

namespace fairway::daemon {

namespace {

// A waiting job's reasons, as the pass explained them.
void show_why(wire::JobView& v, const PendingExplanation& why) {
  v.reasons.clear();
  v.reason_texts.clear();
  for (PendingReason r : why.list()) {
    v.reasons.emplace_back(reason_code(r));
    v.reason_texts.emplace_back(reason_text(r));
  }
  v.estimated_start = why.estimated_start;
}

}  // namespace

wire::JobView job_view(const JobRecord& rec, const JobTracking& t, const Scheduler& scheduler,
                       std::span<const StoredNodeAllocation> ran_on) {
  const ClusterState& cluster = scheduler.cluster();
  wire::JobView v;
  const JobSpec& s = rec.spec;
  v.id = s.id;
  v.name = s.name;
  v.user = s.user;
  v.account = s.account;
  v.partition = s.partition;
  v.qos = s.qos;
  v.comment = s.comment;
  v.nice = s.nice;
  v.ntasks_per_node = s.tasks.ntasks_per_node;
  v.exclusive = s.exclusive;
  v.req_nodes = s.only_nodes;
  v.exc_nodes = s.excluded_nodes;
  v.features = s.constraint;
  v.no_requeue = !s.requeue;
  v.mail_events = s.mail_events;
  v.mail_user = s.mail_user;
  v.gpu_ask = s.gpu_ask;
  v.state = rec.state;
  if (is_waiting(rec.state)) show_why(v, rec.why);
  if (rec.predicted_runtime && (is_waiting(rec.state) || rec.state == JobState::kRunning)) {
    v.predicted_runtime = rec.planned_runtime();
  }
  v.submit_time = s.submit_time;
  if (rec.state == JobState::kRunning || rec.state == JobState::kCompleting || is_terminal(rec.state)) {
    if (!rec.allocation.empty() || rec.start_time != Time()) v.start_time = rec.start_time;
  }
  if (is_terminal(rec.state)) v.end_time = rec.end_time;
  v.time_limit = s.time_limit;
  v.nodes = s.resources.nodes;
  v.cores = s.resources.cores;
  v.gpus = s.resources.gpus;
  v.gpu_type = s.resources.gpu_type;
  v.memory_per_node_mb = s.resources.memory_per_node_mb;
  v.memory_per_cpu_mb = s.resources.memory_per_cpu_mb;
  for (const auto& na : rec.allocation.nodes) {
    v.allocation.push_back({cluster.node(na.node).topology.name, na.cores, na.gpus});
  }
  for (const auto& a : ran_on) v.allocation.push_back({a.node, a.cores, a.gpus});
  const PriorityBreakdown& p = rec.priority;
  v.priority = p.total;
  for (const PriorityTerm& term : priority_terms(scheduler.config(), p)) {
    v.priority_factors.push_back({std::string(term.name), term.value, term.raw});
  }
  v.exit_code = rec.outcome.exit_code;
  v.signal = rec.outcome.signal;
  v.working_dir = t.working_dir;
  v.stdout_path = t.stdout_path;
  v.stderr_path = t.stderr_path;
  v.requeue_count = rec.requeue_count;
  v.state_reason = rec.reason;
  v.peak_memory_bytes = rec.outcome.peak_memory_bytes;
  v.cpu_time_ms = rec.outcome.cpu_time_ms;
  v.reservation = s.reservation;
  v.uid = s.uid;
  v.gid = s.gid;
  v.ntasks = s.tasks.ntasks;
  v.interactive = s.interactive;
  v.cpus_per_task = s.tasks.cpus_per_task;
  if (s.is_array_task()) {
    v.array_job = s.array_job;
    v.array_tasks = std::to_string(s.array_task);
  }
  return v;
}

void show_stop_in_progress(wire::JobView& v, const JobRecord& rec, Time now) {
  if (rec.state != JobState::kRunning) return;
  const StopIntent& stop = rec.stop;
  if (stop.cancel && !stop.allocation_outcome) {
    // scancel's SIGTERM sent: CANCELLED (by whom, in sacct) from the moment of the cancel.
    v.state = JobState::kCompleting;
    v.cancelling = true;
    v.stopping_as = JobState::kCancelled;
    v.state_reason = stop.cancelled_by;
  } else if (stop.requeue) {
    // scontrol requeue: back in the queue at once, its restart counted, its run gone.
    v.state = JobState::kCompleting;
    v.stopping_as = JobState::kRequeued;
    v.requeue_count = rec.requeue_count + 1;
    v.start_time.reset();
    v.predicted_runtime.reset();
  } else if (!rec.spec.time_limit.is_infinite() && now >= rec.start_time + rec.spec.time_limit) {
    // Its agent stops it at the limit (SIGTERM, then SIGKILL after the kill grace).
    v.state = JobState::kCompleting;
    v.stopping_as = JobState::kTimeout;
    v.reasons = {"TimeLimit"};
    v.reason_texts = {"its time limit (" + format_walltime(rec.spec.time_limit) +
                      ") has passed: its processes are being stopped"};
  }
}

wire::JobView array_view(const ArrayJob& a, const JobTracking& t, const Scheduler& scheduler,
                         std::span<const std::int32_t> indices, const PendingExplanation& why) {
  // The prototype waits (pending) for as long as the array has tasks not made.
  wire::JobView v = job_view(a.prototype, t, scheduler);
  v.state = a.held ? JobState::kHeld : JobState::kPending;
  if (a.held) {
    PendingExplanation held;
    held.add(PendingReason::kHeld);
    show_why(v, held);
  } else {
    show_why(v, why);
  }
  v.array_job = a.id();
  v.array_tasks = "[" + format_index_list(indices);
  if (a.prototype.spec.array.max_running > 0)
    v.array_tasks += "%" + std::to_string(a.prototype.spec.array.max_running);
  v.array_tasks += "]";
  return v;
}

wire::NodeView node_view(const NodeEntry& n, const ClusterState& cluster,
                         const std::vector<JobId>& jobs_on_node) {
  wire::NodeView v;
  v.name = n.name;
  const NodeState& ns = cluster.node(n.index);
  const NodeTopology& t = ns.topology;
  v.sockets = static_cast<std::int32_t>(t.sockets.size());
  v.cores = t.total_cores();
  v.threads_per_core = t.sockets.empty() ? 1 : t.sockets.front().threads_per_core;
  v.gpus = t.total_gpus();
  for (const auto& g : t.gpus) v.gpu_types.push_back(g.type);
  v.cores_used = static_cast<std::int32_t>(std::count(ns.core_used.begin(), ns.core_used.end(), 1));
  v.gpus_used = static_cast<std::int32_t>(std::count(ns.gpu_used.begin(), ns.gpu_used.end(), 1));
  v.memory_mb = t.memory_mb;
  v.memory_used_mb = ns.used_memory_mb;
  v.last_heartbeat = n.last_heard;
  v.reason = n.reason;
  if (!n.reason.empty()) {
    v.reason_user = n.reason_by.user;
    v.reason_uid = n.reason_by.uid;
    v.reason_time = n.reason_time;
  }
  v.jobs = jobs_on_node;
  v.enforcement = n.enforcement;
  v.features = n.topology.features;
  for (PartitionIndex p : ns.partitions) v.partitions.push_back(cluster.partition(p).name);
  if (n.liveness != NodeLiveness::kUp) {
    v.state = "down";
  } else if (n.drained) {
    // As sinfo: running jobs still finish there, and it is drained once they have.
    v.state = jobs_on_node.empty() ? "drained" : "draining";
  } else if (v.cores_used == 0 && v.gpus_used == 0) {
    v.state = "idle";
  } else if (v.cores_used == v.cores) {
    v.state = "allocated";
  } else {
    v.state = "mixed";
  }
  return v;
}

}  // namespace fairway::daemon
