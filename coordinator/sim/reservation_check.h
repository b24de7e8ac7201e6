// fairway-sim --check's reservation rule, from the schedule alone (independent of the core):
// a job promised a start by a reservation starts by then, unless a job that was running when
// the promise was made overran its time limit past it.
#pragma once

#include <span>
#include <vector>

#include "coordinator/sim/schedule_record.h"
#include "shared/base/result.h"
#include "shared/base/time.h"

namespace fairway::sim {

// `limits[i]` is records[i]'s job's time limit. Ok, or the first late job with its promise,
// when it was made and when the job started; also a record with only one of reserved_start
// and reserved_at, or a promise made after the start it promised. O(records log records).
Status check_reservations(const std::vector<ScheduleRecord>& records, std::span<const Duration> limits);

}  // namespace fairway::sim
