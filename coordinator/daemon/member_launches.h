// The nodes of a job besides its head: the extern-only launches that hold its cores, GPUs
// and cgroup there for its steps, the signals that reach them, and their release at its end.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "coordinator/core/cluster_state.h"
#include "coordinator/core/job_record.h"
#include "coordinator/daemon/job_tracking.h"
#include "coordinator/daemon/outgoing.h"
#include "coordinator/daemon/service_context.h"
#include "shared/model/allocation.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

// The launches of `rec`'s nodes but its first, made from its head's LaunchJob: each holds
// that node's share of the allocation and runs nothing of the job's (extern_only).
std::vector<Outgoing> member_launches(const ClusterState& cluster, const JobRecord& rec,
                                      const wire::LaunchJob& head);

// To every node of `where` (the job's allocation), with the agents' kill grace unless
// `grace` says otherwise.
void signal_job(ServiceContext& ctx, JobId id, const Allocation& where, std::int32_t signal,
                std::optional<Duration> grace = std::nullopt);

// The job stopped running, for any reason: `members` (the nodes it held besides its head,
// read before the core freed them) stop holding it, and its steps still open end with it.
void release_members(ServiceContext& ctx, JobTracking& t, JobId id, const std::vector<std::string>& members,
                     Time now);

}  // namespace fairway::daemon
