// The capacity rule; see capacity_check.h.
#include "coordinator/sim/capacity_check.h"

#include "coordinator/sim/check_text.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "shared/base/try.h"

namespace fairway::sim {

using namespace check_text;

namespace {

// Per unit of the machine: until when its latest holder holds it, and which record that is.
struct Holders {
  explicit Holders(std::size_t n) : until(n, std::numeric_limits<std::int64_t>::min()), by(n) {}
  std::vector<std::int64_t> until;
  std::vector<std::size_t> by;
};

Status take(const std::vector<NodeTopology>& nodes, const std::vector<ScheduleRecord>& recs, Holders& h,
            const char* what, std::size_t base, const NodeAllocation& na,
            const std::vector<std::int32_t>& units, std::size_t rec) {
  const ScheduleRecord& r = recs[rec];
  for (const std::int32_t u : units) {
    const std::size_t slot = base + static_cast<std::size_t>(u);
    if (h.until[slot] > r.start.seconds()) {
      const ScheduleRecord& other = recs[h.by[slot]];
      return violation(std::string(what) + " " + str(u) + " of node " + nodes[na.node.value()].name +
                       " is used by " + job(other.id) + " " + span(other) + " and by " + job(r.id) + " " +
                       span(r) + " at the same time");
    }
    h.until[slot] = r.end.seconds();
    h.by[slot] = rec;
  }
  return ok_status();
}

}  // namespace

// Sweep the records in start order, remembering for each core and GPU who holds it until
// when. With no overlap found so far, a unit's holders form disjoint intervals in start
// order, so the latest holder is the only one a new start can collide with.
Status check_capacity(const std::vector<NodeTopology>& nodes, const std::vector<ScheduleRecord>& recs) {
  std::vector<std::size_t> core_base(nodes.size() + 1, 0);
  std::vector<std::size_t> gpu_base(nodes.size() + 1, 0);
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    core_base[n + 1] = core_base[n] + static_cast<std::size_t>(nodes[n].total_cores());
    gpu_base[n + 1] = gpu_base[n] + static_cast<std::size_t>(nodes[n].total_gpus());
  }
  std::vector<std::size_t> order;
  order.reserve(recs.size());
  for (std::size_t i = 0; i < recs.size(); ++i) {
    if (recs[i].end > recs[i].start) order.push_back(i);  // zero-length jobs hold nothing
  }
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return std::pair{recs[x].start, x} < std::pair{recs[y].start, y};
  });
  Holders cores(core_base.back());
  Holders gpus(gpu_base.back());
  for (const std::size_t i : order) {
    auto cursor = recs[i].allocation.cursor();
    for (NodeAllocation na; cursor.next(na);) {
      const std::size_t n = na.node.value();
      FAIRWAY_TRY(take(nodes, recs, cores, "core", core_base[n], na, na.cores, i));
      FAIRWAY_TRY(take(nodes, recs, gpus, "GPU", gpu_base[n], na, na.gpus, i));
    }
  }
  return ok_status();
}

}  // namespace fairway::sim
