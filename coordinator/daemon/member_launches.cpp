// A multi-node job's other nodes: every node of a job but its first gets an extern-only
// launch, so that its agent holds the job's cores, GPUs and cgroup there until the job stops;
// the steps themselves (srun) are the client API's (client_steps.cpp).
#include "coordinator/daemon/member_launches.h"

#include <csignal>

#include "shared/wire/codec.h"

namespace fairway::daemon {

std::vector<Outgoing> member_launches(const ClusterState& cluster, const JobRecord& rec,
                                      const wire::LaunchJob& head) {
  constexpr std::int64_t kMiB = 1 << 20;
  std::vector<Outgoing> out;
  for (std::size_t i = 1; i < rec.allocation.nodes.size(); ++i) {
    const NodeAllocation& na = rec.allocation.nodes[i];
    const auto& node = cluster.node(na.node);
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
    out.push_back({Channel::kAgents, node.topology.name, wire::encode(m), {}});
  }
  return out;
}

void signal_job(ServiceContext& ctx, JobId id, const Allocation& where, std::int32_t signal,
                std::optional<Duration> grace) {
  const wire::SignalJob stop{id, signal, grace.value_or(ctx.config.agent.kill_grace)};
  // The other nodes hold its steps' tasks: they get the same signal and grace, not only
  // the SIGKILL that comes once the job has ended.
  for (const NodeAllocation& na : where.nodes) {
    ctx.service.reply(Channel::kAgents, ctx.scheduler.cluster().node(na.node).topology.name, stop);
  }
}

void release_members(ServiceContext& ctx, JobTracking& t, JobId id, const std::vector<std::string>& members,
                     Time now) {
  // Its steps' tasks there may still be in the grace of the stop that ended the job (they
  // heard it with the first node): a stop can only shorten that, and what merely holds
  // the job there ends at once. Their cores may go to the next job meanwhile: its launch
  // waits on the agent until they are free.
  for (const std::string& node : members) {
    ctx.service.reply(Channel::kAgents, node, wire::SignalJob{id, SIGTERM, ctx.config.agent.kill_grace});
  }
  // Steps whose srun has not said how they ended were killed with the job.
  for (const StoredStep& step : t.steps.end_all(now)) ctx.service.persist_step(step);
}

}  // namespace fairway::daemon
