// Starting a job the pass placed: the LaunchJob its head node's agent gets (program,
// cores, task split, memory limit, warning signal, fencing rule), and its members' (member_launches.h).
#include <csignal>

#include "coordinator/daemon/array_rows.h"
#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/job_nodes.h"
#include "coordinator/daemon/member_launches.h"
#include "shared/base/log.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
void CoordinatorService::launch(JobId id, Time now) {
  const JobRecord* rec = scheduler_->job(id);
  // A task of an array starts as a job of its own: its row first, the launch reads it.
  if (rec->spec.is_array_task()) (void)adopt_array_task(context(), id);
  tracking_.try_emplace(id.value());  // one its array's adoption could not make
  const NodeAllocation& head = rec->allocation.nodes.front();
  const std::string head_name = head_node(rec->allocation, scheduler_->cluster());
  ++counters_.started;
  persist(id);

  auto decoded = stored_request(id);
  if (!decoded) {
    const std::string why = decoded.error().message;
    log_event(LogLevel::kError, "launch_failed", {{"job", id_str(id)}, {"error", why}});
    (void)scheduler_->finish(id, JobState::kFailed, now);
    (void)scheduler_->set_reason(id, "cannot read its stored request: " + why);
    mark_terminal(id, now);
    return;
  }
  wire::LaunchJob l;
  l.job = id;
  l.user = rec->spec.user;
  l.account = rec->spec.account;
  l.name = rec->spec.name;
  l.program = std::move(decoded->program);
  // As Slurm's batch job has it; after the submitter's variables, so it wins over theirs.
  if (!config_.cluster_name.empty()) l.program.env.emplace_back("SLURM_CLUSTER_NAME", config_.cluster_name);
  l.cores = head.cores;
  l.gpus = head.gpus;
  l.time_limit = rec->spec.time_limit;
  for (const auto& na : rec->allocation.nodes) {
    l.nodelist.push_back(scheduler_->cluster().node(na.node).topology.name);
    l.node_cores.push_back(static_cast<std::int32_t>(na.cores.size()));
  }
  l.tasks = rec->spec.tasks;
  l.warn_signal = rec->spec.warn_signal;
  l.warn_before_s = rec->spec.warn_before_s;
  l.warn_batch_only = rec->spec.warn_batch_only;
  constexpr std::int64_t kMiB = 1 << 20;
  // What the scheduler counted as held on the node is what its cgroup may use.
  if (head.memory_mb > 0) l.memory_limit_bytes = head.memory_mb * kMiB;
  l.partition = rec->spec.partition;
  l.restarts = rec->requeue_count;
  l.uid = rec->spec.uid;
  l.gid = rec->spec.gid;
  // One rule on both sides: the agent fences GPU sockets exactly when placement did.
  l.fence_gpu_sockets = scheduler_->cluster().node(head.node).socket_exclusive;
  if (rec->spec.is_array_task()) {
    l.array.array_job = rec->spec.array_job;
    l.array.task = rec->spec.array_task;
    // The array's shape, while it is known (an array outlives its last task's start).
    if (const ArrayJob* a = scheduler_->array(rec->spec.array_job)) {
      const ArraySpec& shape = a->prototype.spec.array;
      l.array.count = static_cast<std::int32_t>(shape.count());
      l.array.min = shape.min_index();
      l.array.max = shape.max_index();
      l.array.step = shape.step();
    }
  }
  turn_launches_.push_back({Channel::kAgents, head_name, wire::encode(l), {}});
  for (Outgoing& o : member_launches(scheduler_->cluster(), *rec, l)) turn_launches_.push_back(std::move(o));
  log_event(LogLevel::kInfo, "job_started",
            {{"job", id_str(id)},
             {"node", head_name},
             {"cores", std::to_string(rec->allocation.total_cores())},
             {"gpus", std::to_string(rec->allocation.total_gpus())}});
  notices_.about(id, kMailBegin);
}

}  // namespace fairway::daemon
