// CoordinatorService's side of multi-node jobs and their steps. Every node of a job but
// its first gets an extern-only launch, so that its agent holds the job's cores, GPUs and
// cgroup there until the job stops; the steps themselves (srun) are the client API's
// (client_steps.cpp), booked per job in its StepBook; the store gets their rows here.
#include <csignal>

#include "coordinator/daemon/coordinator_service.h"
#include "shared/base/log.h"
#include "shared/base/try.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {

void CoordinatorService::launch_members(const JobRecord& rec, const wire::LaunchJob& head) {
  constexpr std::int64_t kMiB = 1 << 20;
  for (std::size_t i = 1; i < rec.allocation.nodes.size(); ++i) {
    const NodeAllocation& na = rec.allocation.nodes[i];
    const auto& node = scheduler_->cluster().node(na.node);
    wire::LaunchJob m = head;
    m.extern_only = true;
    m.program = wire::JobProgram{};  // the agent runs its own holder, nothing of the job's
    // --signal's warning is for the job's script: it would end the holder (and the steps
    // it holds the node for) before the job's time is up.
    m.warn_signal = 0;
    m.warn_before_s = 0;
    m.warn_batch_only = false;
    m.cores = na.cores;
    m.gpus = na.gpus;
    m.memory_limit_bytes = na.memory_mb > 0 ? std::optional(na.memory_mb * kMiB) : std::nullopt;
    m.fence_gpu_sockets = node.socket_exclusive;
    turn_launches_.push_back({Channel::kAgents, node.topology.name, wire::encode(m), {}});
  }
}

void CoordinatorService::release_members(JobTracking& t, JobId id, const std::vector<std::string>& members,
                                         Time now) {
  // Its steps' tasks there may still be in the grace of the stop that ended the job (they
  // heard it with the first node): a stop can only shorten that, and what merely holds
  // the job there ends at once. Their cores may go to the next job meanwhile: its launch
  // waits on the agent until they are free.
  for (const std::string& node : members) {
    reply(Channel::kAgents, node, wire::SignalJob{id, SIGTERM, config_.agent.kill_grace});
  }
  // Steps whose srun has not said how they ended were killed with the job.
  for (const StoredStep& step : t.steps.end_all(now)) persist_step(step);
}

void CoordinatorService::persist_step(const StoredStep& step) {
  // Steps are accounting: with the store read-only the job and its step go on unrecorded.
  if (read_only()) return;
  if (!ensure_txn()) return;
  (void)write(store_->put_step(step), "put_step", step.job);
}

}  // namespace fairway::daemon
