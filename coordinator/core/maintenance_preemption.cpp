#include "coordinator/core/maintenance_preemption.h"

#include <cassert>
#include <string>
#include <utility>

namespace fairway {

// Killed, and requeued after the outage (Titan, seed 000).
void preempt_for_maintenance(const MaintenanceSchedule& maintenance, const ClusterState& cluster,
                             const Config& config, std::span<JobRecord* const> running, Time now,
                             PassResult& result, PreemptionHost& host) {
  for (JobId id : maintenance.due_for_preemption(cluster, config, running, now)) {
    const JobRecord* j = host.find(id);
    JobPreemption p{id, "maintenance on its nodes begins", j->start_time, j->allocation};
    const Status st = host.requeue(id, now);
    assert(st.has_value() && "a running job can always be requeued");
    (void)st;
    host.find(id)->reason = p.reason;
    result.preempted.push_back(std::move(p));
  }
}

}  // namespace fairway
