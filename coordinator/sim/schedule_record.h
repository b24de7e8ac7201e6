// One job run as the simulator records it: the line format of SCHEDULE.jsonl and the
// input of the schedule validator.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "shared/base/ids.h"
#include "shared/base/time.h"
#include "shared/model/compact_allocation.h"
#include "shared/model/job_state.h"
#include "shared/model/topology.h"

namespace fairway::sim {

struct ScheduleRecord {
  JobId id;
  Time submit;
  Time start;
  Time end;
  JobState state = JobState::kCompleted;
  // Packed: a trace keeps one per job, and per-core lists made CEA-Curie need 21 GB.
  CompactAllocation allocation;
  bool preempted = false;
  // Cut short for this higher-tier job (owner partitions); unset for maintenance.
  std::optional<JobId> preempted_by;
  // The reservation in force for this job at the last pass before it started, if any:
  // the start it was promised (reserved_start) and the pass that promised it (reserved_at).
  std::optional<Time> reserved_start;
  std::optional<Time> reserved_at;
};

// One SCHEDULE.jsonl line (no trailing newline). Node indices become node names.
std::string schedule_record_json(const ScheduleRecord& r, const std::vector<NodeTopology>& nodes);

}  // namespace fairway::sim
