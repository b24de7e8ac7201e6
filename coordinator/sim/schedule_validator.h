// An independent check of a produced schedule against the workload and the machine. It
// shares no logic with the scheduling core, so a core bug cannot hide itself here.
#pragma once

#include <vector>

#include "coordinator/sim/schedule_record.h"
#include "coordinator/sim/workload.h"
#include "shared/base/result.h"
#include "shared/model/topology.h"

namespace fairway::sim {

struct ValidationInput {
  const std::vector<NodeTopology>* nodes = nullptr;   // the machine (node index = position)
  const Workload* workload = nullptr;                 // what was submitted
  const std::vector<ScheduleRecord>* records = nullptr;  // what ran
  std::vector<JobId> rejected;  // jobs the scheduler refused at submission (never run)
  bool check_reservations = false;  // EASY/conservative: reserved jobs start on time
};

// Ok, or an error naming the first violation found (job id, node, core, times).
Status validate_schedule(const ValidationInput& in);

}  // namespace fairway::sim
