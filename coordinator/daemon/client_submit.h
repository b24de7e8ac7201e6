// The coordinator's client API for new work: a submission (sbatch, `fairway submit`), a
// batch of them, and sbatch --test-only's estimate. Each takes a request, answers its reply.
#pragma once

#include "coordinator/daemon/client_identity.h"
#include "coordinator/daemon/service_context.h"

namespace fairway::daemon {

// A SubmitReply naming the job (or, with test_only, when it would start), or an ErrorReply.
// A retried submission (the same client token) gets the job the first attempt made.
wire::Message submit(ServiceContext& ctx, const wire::SubmitRequest& m, const Caller& caller, Time now);
// Each request of the batch as submit() takes it, answered one result each.
wire::Message submit_batch(ServiceContext& ctx, const wire::SubmitBatch& m, const Caller& caller, Time now);

}  // namespace fairway::daemon
