// When a node goes silent: its jobs may still run (a partition, a hung agent), so they are
// given up only once its agent has surely stopped them.
#include "coordinator/daemon/node_loss.h"

#include <string>
#include <utility>
#include <vector>

#include "coordinator/daemon/job_nodes.h"
#include "coordinator/daemon/job_tracking.h"
#include "shared/base/log.h"

namespace fairway::daemon {

namespace {

void node_lost(AgentTurn& turn, NodeEntry& n) {
  turn.ctx.scheduler.set_node_up(n.index, false);
  // Its jobs may still run (a partition, a hung agent): the agent stops them itself once
  // its lease runs out. Only then may they start elsewhere.
  const Time last = n.last_heard_mono.value_or(turn.mono);
  n.release_jobs_at = last + lease_out(turn.ctx.config);
  log_event(LogLevel::kWarning, "node_down",
            {{"node", n.name},
             {"reason", n.reason},
             {"jobs_released_in_s", std::to_string((*n.release_jobs_at - turn.mono).count())}});
}

// A running job whose processes we lost track of: requeued if it allows, else node_fail.
void lose_job(AgentTurn& turn, JobId id, const std::string& why) {
  const JobRecord* rec = turn.ctx.scheduler.job(id);
  if (rec == nullptr || rec->state != JobState::kRunning) return;
  turn.ctx.tracking[id.value()].unconfirmed_since.reset();
  // Requeued if it allows, else node_fail: the core's lifecycle decides (job_lifecycle.h).
  (void)turn.ctx.service.on_job_event(id, lifecycle::NodeLost{why}, turn.now);
  turn.ctx.service.changed();
}

// The silent node's lease has run out on its agent: its jobs are requeued or failed.
void release_jobs_of(AgentTurn& turn, NodeEntry& n) {
  n.release_jobs_at.reset();
  std::vector<JobId> victims;
  for (const JobRecord* rec : turn.ctx.scheduler.running()) {
    for (const auto& na : rec->allocation.nodes) {
      if (na.node == n.index) {
        victims.push_back(rec->spec.id);
        break;
      }
    }
  }
  for (JobId id : victims) lose_job(turn, id, "node " + n.name + " lost");
}

}  // namespace

Duration lease_out(const Config& config) {
  return config.agent.coordinator_lease + config.agent.kill_grace + config.agent.heartbeat_interval +
         Duration::seconds(2);
}

void watch_nodes(AgentTurn& turn) {
  ServiceContext& ctx = turn.ctx;
  const Time m = turn.mono;
  for (NodeEntry* n : ctx.registry.expire_silent(turn.now, m, ctx.config.coordinator.heartbeat_timeout)) {
    node_lost(turn, *n);
  }
  for (const NodeEntry& entry : ctx.registry.nodes()) {
    if (entry.release_jobs_at && *entry.release_jobs_at <= m && entry.liveness != NodeLiveness::kUp) {
      release_jobs_of(turn, *ctx.registry.find(entry.name));
    }
  }
  // A job we lost track of in a restart: if its node registered without it, only its
  // final report can still be on the way (a heartbeat timeout is patience enough); if its
  // node has not registered, it may still run there until that agent's lease runs out.
  const Duration lease_out = daemon::lease_out(ctx.config);
  // The reason says which: a node silent past its lease is lost (as after a heartbeat
  // timeout, and its job may have ended unreported there: the rerun is at-least-once).
  std::vector<std::pair<JobId, std::string>> overdue;
  for (const auto& [id, t] : ctx.tracking) {
    if (!t.unconfirmed_since) continue;
    const std::string head = head_node(ctx.scheduler, JobId(id));
    const NodeEntry* node = ctx.registry.find(head);
    const bool registered = node != nullptr && node->liveness == NodeLiveness::kUp;
    if (m - *t.unconfirmed_since > (registered ? ctx.config.coordinator.heartbeat_timeout : lease_out)) {
      overdue.emplace_back(JobId(id),
                           registered ? "no report from its node after a restart" : "node " + head + " lost");
    }
  }
  for (const auto& [id, why] : overdue) lose_job(turn, id, why);
}

}  // namespace fairway::daemon
