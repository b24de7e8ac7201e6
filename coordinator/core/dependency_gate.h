// The pass's gate for sbatch --begin and --dependency: whether a waiting job may be
// considered at all this pass, and which --dependency=singleton jobs may go.
#pragma once

#include <span>
#include <unordered_set>
#include <vector>

#include "coordinator/core/job_dependencies.h"
#include "coordinator/core/job_record.h"

namespace fairway {

// --dependency=singleton: per user and job name, nothing running and only the earliest
// submitted waiting job goes. The waiting singleton jobs that may go this pass.
std::unordered_set<const JobRecord*> singletons_free_to_go(std::span<JobRecord* const> waiting,
                                                           std::span<JobRecord* const> running);

// Whether waiting job `j` may be considered now (its --begin has come, its dependencies
// hold); sets its pending reason when not, and its age from when it first could when it
// may. A kill-on-invalid job whose dependency can never hold goes to `cancel_now`.
bool ready_to_consider(JobRecord& j, Time now, bool singleton_clear, const LiveJobState& live,
                       const EndedJobs& ended, std::vector<JobRecord*>& cancel_now);

}  // namespace fairway
