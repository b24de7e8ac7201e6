// The coordinator's client API for changing jobs and nodes: cancel, hold, release, requeue,
// signal and end an allocation (JobControl, arrays' included), `update job`, drain and resume.
#pragma once

#include "coordinator/daemon/client_identity.h"
#include "coordinator/daemon/service_context.h"

namespace fairway::daemon {

// A JobControlReply with one result per job or array task named: an array as a whole, or
// "ID_INDEX" as a job of its own.
wire::Message job_control(ServiceContext& ctx, const wire::JobControl& m, const Caller& caller, Time now);
// `fairway update job` (scontrol update job): a JobControlReply, one result per job.
wire::Message job_update(ServiceContext& ctx, const wire::JobUpdate& m, const Caller& caller);
// Drain or resume nodes (admins only): a NodeControlReply, one result per node.
wire::Message node_control(ServiceContext& ctx, const wire::NodeControl& m, const Caller& caller, Time now);

}  // namespace fairway::daemon
