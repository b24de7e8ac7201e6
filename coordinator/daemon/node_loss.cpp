// CoordinatorService when a node goes silent: its jobs may still run (a partition, a hung
// agent), so they are given up only once its agent has surely stopped them.
#include "coordinator/daemon/coordinator_service.h"

#include "shared/base/log.h"

namespace fairway::daemon {

// How long after we last heard a node its jobs may still run: its agent's lease, the kill
// grace, a heartbeat of transit, and the keepers' margin (a keeper fences a second after
// its agent would, and looks once a second: job_keeper.cpp), for a node whose agent died.
Duration CoordinatorService::lease_out() const {
  return config_.agent.coordinator_lease + config_.agent.kill_grace + config_.agent.heartbeat_interval +
         Duration::seconds(2);
}

void CoordinatorService::node_lost(NodeEntry& n, Time now) {
  scheduler_->set_node_up(n.index, false);
  // Its jobs may still run (a partition, a hung agent): the agent stops them itself once
  // its lease runs out. Only then may they start elsewhere.
  const Time last = n.last_heard_mono.value_or(mono(now));
  n.release_jobs_at = last + lease_out();
  log_event(LogLevel::kWarning, "node_down",
            {{"node", n.name},
             {"reason", n.reason},
             {"jobs_released_in_s", std::to_string((*n.release_jobs_at - mono(now)).count())}});
}

void CoordinatorService::release_jobs_of(NodeEntry& n, Time now) {
  n.release_jobs_at.reset();
  std::vector<JobId> victims;
  for (const JobRecord* rec : scheduler_->running()) {
    for (const auto& na : rec->allocation.nodes) {
      if (na.node == n.index) {
        victims.push_back(rec->spec.id);
        break;
      }
    }
  }
  for (JobId id : victims) lose_job(id, "node " + n.name + " lost", now);
}

void CoordinatorService::lose_job(JobId id, const std::string& why, Time now) {
  const JobRecord* rec = scheduler_->job(id);
  if (rec == nullptr || rec->state != JobState::kRunning) return;
  tracking_[id.value()].unconfirmed_since.reset();
  // Requeued if it allows, else node_fail: the core's lifecycle decides (job_lifecycle.h).
  (void)on_job_event(id, lifecycle::NodeLost{why}, now);
  dirty_ = true;
}

}  // namespace fairway::daemon
