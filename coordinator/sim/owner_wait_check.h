// fairway-sim --check's promptness rule for owner partitions: an owner job that could have
// started by preempting lower tiers did, within the grace. Independent of the core.
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "coordinator/sim/schedule_record.h"
#include "coordinator/sim/schedule_validator.h"
#include "shared/base/result.h"
#include "shared/model/job_spec.h"
#include "shared/model/topology.h"

namespace fairway::sim {

struct OwnerWaitInput {
  const std::vector<NodeTopology>& nodes;
  const std::vector<ScheduleRecord>& records;
  const std::vector<const JobSpec*>& specs;  // per record
  const std::vector<bool>& exact_rounding;   // per record: its partition gives exactly what it asks
  const std::string& default_partition;
  const std::unordered_map<std::string, std::pair<std::int32_t, bool>>& preemption;
  const std::unordered_map<std::string, ValidationInput::PreemptionTerms>& terms;
};

// An owner job that arrives with no rival of its tier (or above) waiting, while the free
// cores plus the cores of running, preemptable lower-tier jobs past their exempt time on
// its partition's nodes cover its request, starts within the longest grace of those lower
// partitions. Simple requests only (cores spread freely, exact rounding, not held); a job
// that overran its time limit meanwhile excuses a late start, as for reservations.
// Ok, or the first violation, naming the job, its arrival, start and the grace.
Status check_owner_start_times(const OwnerWaitInput& in);

}  // namespace fairway::sim
