// What the coordinator daemon keeps about a job beyond the core's record while it lives:
// its files and its steps. Read back by recovery, kept by the service until the job ends
// (then FinishedJobs keeps its view, finished_jobs.h).
#pragma once

#include <optional>
#include <string>

#include "coordinator/daemon/step_book.h"
#include "shared/base/time.h"

namespace fairway::daemon {

// What the daemon knows about a waiting or running job (or a live array) beyond the core's
// record.
struct JobTracking {
  std::string working_dir, stdout_path, stderr_path;
  // Its stop intent (cancel, requeue, an ended allocation) and its outcome (exit, usage)
  // are the core's: JobRecord::stop and JobRecord::outcome.
  std::optional<Time> unconfirmed_since;  // its agent re-registered without it (monotonic)
  // A job array's own entry: a query naming it names its tasks.
  bool array = false;
  // Where it runs is not kept here: its head and members (which hold its cores for its
  // steps, LaunchJob.extern_only) are its allocation's (job_nodes.h).
  // Its steps: their numbers, the open ones (their srun reports each one's end), the cores
  // its --exclusive/--exact steps hold.
  StepBook steps;
};

}  // namespace fairway::daemon
