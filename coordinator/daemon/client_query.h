// The coordinator's client API for reading: `fairway queue` and `show job` (JobQuery),
// `history`/sacct (JobQuery::from_store), `nodes` (NodeQuery). Each answers its reply.
#pragma once

#include <vector>

#include "coordinator/daemon/client_identity.h"
#include "coordinator/daemon/service_context.h"

namespace fairway::daemon {

// Jobs per JobQueryReply page: a few MiB, well under the frame limit.
inline constexpr std::size_t kJobQueryPage = 5000;

// A JobQueryReply page (or an ErrorReply when the store cannot be read): waiting and
// running jobs from the core, finished ones from the kept views or (from_store) the store.
wire::Message job_query(const ServiceContext& ctx, const wire::JobQuery& m, const Caller& caller, Time now);
wire::Message node_query(const ServiceContext& ctx, const wire::NodeQuery& m, const Caller& caller);
// The stored steps of these jobs, onto their views (sacct).
Status attach_steps(const JobStore& store, std::vector<wire::JobView>& jobs);

}  // namespace fairway::daemon
