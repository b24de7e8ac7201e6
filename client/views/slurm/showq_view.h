// Maui's showq, as HPC2N's users read it (seed 002): ACTIVE, IDLE and BLOCKED jobs with
// processors, remaining or requested walltime and times, the share of processors and nodes
// in use, and the totals line. Pure function of the replies (local time zone); thread-safe.
#pragma once

#include <string>

#include "shared/wire/messages.h"

namespace fairway::cli {

// Idle: waiting and eligible now. Blocked: held ("Hold"), over a policy limit ("Idle", as
// Maui shows MAXPS-blocked jobs), or waiting on a dependency or a begin time ("Deferred").
std::string render_showq(const wire::JobQueryReply& jobs, const wire::NodeQueryReply& nodes);

}  // namespace fairway::cli
