// `fairway show reservation` (scontrol show reservation): every configured reservation with
// its state now and, for a project's, its use, patience and jobs. Pure read of the core.
#pragma once

#include "coordinator/core/scheduler.h"
#include "shared/base/result.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

// Every reservation, or those named (an unknown name is kNotFound, naming the known ones).
Result<wire::ReservationQueryReply> reservation_report(const Scheduler& scheduler,
                                                       const wire::ReservationQuery& q, Time now);

}  // namespace fairway::daemon
