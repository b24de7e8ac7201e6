// sbatch --test-only and `show job`'s start by limit: when a job would start, answered by a
// what-if pass on a copy of the scheduler (Scheduler::what_if); nothing real changes.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "coordinator/core/pending_reason.h"
#include "coordinator/core/scheduler.h"
#include "shared/base/result.h"
#include "shared/model/allocation.h"
#include "shared/model/job_spec.h"

namespace fairway {

// What estimate_start answers: a start time (nullopt when none can be promised, `why`
// says what holds it), the partition, and the allocation when it would start now.
struct StartEstimate {
  std::optional<Time> start;
  std::string partition;
  Allocation allocation;
  PendingExplanation why;
};

// When `spec` would start if submitted now. Planned with a reservation for every waiting
// job (conservative backfill) so that the answer does not hang on whether EASY reserves
// for it. The refusals are submit's, without the job's id (it was never a job).
Result<StartEstimate> estimate_start(const Scheduler& scheduler, JobSpec spec, Time now,
                                     std::span<const std::string> groups = {});
// With scheduler.runtime_prediction: when waiting job `id` would start were every job
// planned by its time limit, as without predictions (`show job` shows it beside the start
// planned by prediction). Nullopt when none is promised or `id` is not waiting.
std::optional<Time> estimate_start_by_limit(const Scheduler& scheduler, JobId id, Time now);

}  // namespace fairway
