// What the coordinator daemon keeps about a job beyond the core's record: its files, its
// steps, its mails, and its view once it ended. Read back by recovery, kept by the service.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "coordinator/daemon/step_book.h"
#include "shared/base/time.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

// Finished jobs whose views stay in memory for `queue --all`; older ones live in the store.
inline constexpr std::size_t kFinishedViewsKept = 100000;

// What the daemon knows about a job beyond the core's record.
struct JobTracking {
  std::string working_dir, stdout_path, stderr_path;
  // Its stop intent (cancel, requeue, an ended allocation) and its outcome (exit, usage)
  // are the core's: JobRecord::stop and JobRecord::outcome.
  std::optional<Time> unconfirmed_since;    // its agent re-registered without it (monotonic)
  std::optional<wire::JobView> final_view;  // kept once terminal; the core forgets it
  // A job array's own entry (kept after it ends): a query naming it names its tasks.
  bool array = false;
  // Where it runs is not kept here: its head and members (which hold its cores for its
  // steps, LaunchJob.extern_only) are its allocation's (job_nodes.h).
  // Its steps: their numbers, the open ones (their srun reports each one's end), the cores
  // its --exclusive/--exact steps hold.
  StepBook steps;
};

}  // namespace fairway::daemon
