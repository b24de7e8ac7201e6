// A maintenance window's start in the pass: the running killable jobs on its nodes
// (MaintenanceSchedule::due_for_preemption) are requeued (Titan, seed 000).
#pragma once

#include <span>

#include "coordinator/core/cluster_state.h"
#include "coordinator/core/job_record.h"
#include "coordinator/core/maintenance_schedule.h"
#include "coordinator/core/pass_result.h"
#include "coordinator/core/preemption_host.h"
#include "shared/config/config.h"

namespace fairway {

// Requeues, through `host`, the killable jobs of `running` that a maintenance starting by
// `now` must kill: each gets the maintenance as its reason and goes to result.preempted
// with the run that was cut short. `running` is read before anything changes.
void preempt_for_maintenance(const MaintenanceSchedule& maintenance, const ClusterState& cluster,
                             const Config& config, std::span<JobRecord* const> running, Time now,
                             PassResult& result, PreemptionHost& host);

}  // namespace fairway
