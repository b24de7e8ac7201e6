// sbatch --dependency in the core: what became of the jobs others wait on, and whether a
// waiting job's clauses hold. Pure; owned by one Scheduler, not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "shared/base/ids.h"
#include "shared/model/job_spec.h"
#include "shared/model/job_state.h"

namespace fairway {

// How every job that ended came out, for jobs submitted later that name it. One byte per
// job id while ids are dense (the daemon's and the traces' are), so a million finished
// jobs cost a megabyte; far-flung ids go to a map.
class EndedJobs {
 public:
  enum class Outcome : std::uint8_t { kUnknown = 0, kSucceeded, kFailed };
  void record(JobId id, JobState final_state);
  Outcome outcome(JobId id) const;

 private:
  std::vector<std::uint8_t> dense_;
  std::unordered_map<std::uint64_t, std::uint8_t> sparse_;
};

enum class DependencyStatus : std::uint8_t { kSatisfied, kWaiting, kNeverSatisfied };

// The state of a job the scheduler still holds, or nullopt when it holds none.
using LiveJobState = std::function<std::optional<JobState>(JobId)>;

// `spec`'s clauses against live jobs and ended ones. A singleton clause holds when
// `singleton_clear` (the scheduler decides that per pass, from every job of the user). A
// job id neither live nor ended is "never": it cannot have run under this coordinator.
DependencyStatus evaluate_dependencies(const JobSpec& spec, const LiveJobState& live, const EndedJobs& ended,
                                       bool singleton_clear);

// Whether the spec names a job that neither exists nor ended: refused at submit, as
// Slurm's "Job dependency problem". Returns the first such id.
std::optional<JobId> unknown_dependency(const JobSpec& spec, const LiveJobState& live,
                                        const EndedJobs& ended);

bool has_singleton(const JobSpec& spec);

}  // namespace fairway
