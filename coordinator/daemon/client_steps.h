// The coordinator's client API for a running job's steps (srun): starting one as a
// LaunchStep per node, and its srun's word on how it ended. Each answers its reply.
#pragma once

#include "coordinator/daemon/client_identity.h"
#include "coordinator/daemon/service_context.h"

namespace fairway::daemon {

// A StepReply (its number, nodes and tasks per node), or an ErrorReply naming the field.
wire::Message step_request(ServiceContext& ctx, const wire::StepRequest& m, const Caller& caller, Time now);
// An Ack once the step's end is recorded, or an ErrorReply.
wire::Message step_ended(ServiceContext& ctx, const wire::StepEnded& m, const Caller& caller, Time now);

}  // namespace fairway::daemon
