// A plain processor-counting EASY backfill, the yardstick the simulator's speed is quoted
// against: what a replay costs with no nodes, cores or policy at all. Benchmarks only.
#pragma once

#include <cstdint>
#include <vector>

#include "coordinator/sim/workload.h"

namespace fairway::bench {

struct CountingEasyResult {
  std::vector<std::int64_t> start;  // per workload job, seconds
  double mean_wait_s = 0;
};

// First come first served; the head waits with a reservation at the earliest time enough
// processors free up by the running jobs' time limits; a later job starts now if it fits
// and either ends by then or leaves the head's processors alone. Jobs run their runtime.
CountingEasyResult counting_easy(const sim::Workload& w, std::int64_t processors);

}  // namespace fairway::bench
