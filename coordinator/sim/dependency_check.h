// fairway-sim --check's rules for sbatch --dependency and --begin, from the schedule alone
// (independent of the core): no job starts before its --begin or before its dependency
// held, and a job that never ran had a dependency that could never be met.
#pragma once

#include <cstddef>
#include <vector>

#include "coordinator/sim/schedule_record.h"
#include "coordinator/sim/workload.h"
#include "shared/base/result.h"

namespace fairway::sim {

struct DependencyCheckInput {
  const Workload& workload;
  const std::vector<ScheduleRecord>& records;
  const std::vector<bool>& rejected;  // by workload index
};

// Ok, or the first violation naming the job, its clause and the times involved.
// Dependencies are read against each named job's runs: `after` holds from its first start,
// the others from its final record's end (afterok: completed; afternotok: ended otherwise).
// singleton: no other job of the same user and name runs when it starts.
Status check_dependencies(const DependencyCheckInput& in);

}  // namespace fairway::sim
