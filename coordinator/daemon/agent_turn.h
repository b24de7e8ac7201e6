// What the agent side (AgentReports, node_loss.h) works on in one event-loop turn: the
// service's parts and actions (ServiceContext), its clocks, and whether the store takes writes.
#pragma once

#include "coordinator/daemon/finished_jobs.h"
#include "coordinator/daemon/service_context.h"
#include "shared/base/time.h"

namespace fairway::daemon {

struct AgentTurn {
  ServiceContext ctx;
  // Ended jobs: a restored job whose node returns may end at once.
  FinishedJobs& finished;
  Time now;        // wall clock
  Time mono;       // the event loop's monotonic clock: node and job timeouts are measured on it
  bool read_only;  // the store takes no writes: nothing that must be stored is done
};

}  // namespace fairway::daemon
