// The order a scheduling pass considers waiting jobs in: partition tier, then priority, then
// submit time, then id (a total order). Pure; sorts a pass's keys, no state between passes.
#pragma once

#include <cstdint>
#include <vector>

#include "shared/base/ids.h"
#include "shared/base/time.h"

namespace fairway {

struct JobRecord;

// Copied out of the records: comparing through their pointers missed the cache on every
// comparison of a large queue.
struct RankKey {
  std::int32_t tier = 0;
  double priority = 0.0;
  Time submit;
  JobId id;
  JobRecord* job = nullptr;
};

// Higher partition tiers first whatever the priority (Slurm's PriorityTier), then higher
// priority, earlier submission, lower id.
bool ranks_before(const RankKey& a, const RankKey& b);

// Sorts `keys` by ranks_before. Consecutive passes mostly agree on the order (priority by
// age keeps it; a start moves one job), so keys that come as a few ordered runs are merged
// in linear time; any other input is sorted as usual. The result is the same either way.
void sort_ranked(std::vector<RankKey>& keys);

}  // namespace fairway
