// A job array's rows in the store: a task gets its own row and tracking when it starts or
// is acted on alone (until then it is part of its array's row), and the array's row follows
// its changes and its end. Functions over a ServiceContext, as the client API is (a const
// one: what it refers to is what they change).
#pragma once

#include <optional>
#include <vector>

#include "coordinator/daemon/service_context.h"

namespace fairway::daemon {

// A made task gets its own row and tracking (the array's files; its request is the array's
// program with the task's spec). True when it has them already; false when its row could
// not be written, or its array's request could not be read (which fails the turn).
bool adopt_array_task(const ServiceContext& ctx, JobId id);
// The array's row: waiting or held, or (`ended`) what it ended as. Nothing for an array
// whose row was never written.
void persist_array(const ServiceContext& ctx, const ArrayJob& a, std::optional<Time> ended);
// Arrays whose last task ended since last asked: their rows end (at `now`), each is
// logged, and they are returned for their mail and their place among the finished jobs.
std::vector<ArrayJob> end_arrays(const ServiceContext& ctx, Time now);

}  // namespace fairway::daemon
