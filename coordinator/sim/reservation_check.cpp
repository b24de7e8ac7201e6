// The reservation rule; see reservation_check.h.
#include "coordinator/sim/reservation_check.h"

#include "coordinator/sim/check_text.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

namespace fairway::sim {

using namespace check_text;

// (e) A reserved job may start late only because a job running when the reservation
// was made outlived its time limit past the promised start (nothing else can break a
// reservation). We need some overrunning K with K.start <= A and K.end > max(A, R). As
// A grows the set {overrunning K : K.start <= A} only grows, so scanning reserved jobs
// by A while keeping the max end over that set answers each query in O(1). J itself is
// never its own excuse: J.start > R >= A, so J is not in the set.
Status check_reservations(const std::vector<ScheduleRecord>& recs, std::span<const Duration> limits) {
  std::vector<std::size_t> late;
  for (std::size_t i = 0; i < recs.size(); ++i) {
    const ScheduleRecord& r = recs[i];
    if (!r.reserved_start && !r.reserved_at) continue;
    if (!r.reserved_start || !r.reserved_at) {
      return violation(job(r.id) + " has only one of reserved_start and reserved_at");
    }
    if (*r.reserved_start < *r.reserved_at) {
      return violation(job(r.id) + " was promised a start by " + str(*r.reserved_start) +
                       ", before the reservation was made at " + str(*r.reserved_at));
    }
    if (r.start > *r.reserved_start) late.push_back(i);
  }
  if (late.empty()) return ok_status();
  std::sort(late.begin(), late.end(), [&](std::size_t x, std::size_t y) {
    return std::pair{*recs[x].reserved_at, x} < std::pair{*recs[y].reserved_at, y};
  });
  std::vector<std::size_t> over;
  for (std::size_t i = 0; i < recs.size(); ++i) {
    const ScheduleRecord& r = recs[i];
    if (r.end - r.start > limits[i]) over.push_back(i);
  }
  std::sort(over.begin(), over.end(), [&](std::size_t x, std::size_t y) {
    return std::pair{recs[x].start, x} < std::pair{recs[y].start, y};
  });
  std::size_t next = 0;
  Time max_end = Time::from_seconds(std::numeric_limits<std::int64_t>::min());
  for (const std::size_t j : late) {
    const ScheduleRecord& r = recs[j];
    const Time at = *r.reserved_at;
    const Time promised = *r.reserved_start;
    for (; next < over.size() && recs[over[next]].start <= at; ++next) {
      max_end = max(max_end, recs[over[next]].end);
    }
    if (max_end > max(at, promised)) continue;
    return violation(job(r.id) + " was promised a start by " + str(promised) + " (reservation made at " +
                     str(at) + ") but started at " + str(r.start) + ", and no job running at " + str(at) +
                     " overran its time limit");
  }
  return ok_status();
}

}  // namespace fairway::sim
