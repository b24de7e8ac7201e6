// The Scheduler's pass order: its waiting jobs ranked by rank_order.h, and waiting_ kept in
// that order between passes so that the next ranking is mostly a check.
#include <cassert>

#include "coordinator/core/rank_order.h"
#include "coordinator/core/scheduler.h"

namespace fairway {

void Scheduler::rank(std::vector<JobRecord*>& ordered) const {
  std::vector<RankKey> keys;
  keys.reserve(ordered.size());
  for (JobRecord* j : ordered) {
    keys.push_back({partition_tier_[j->partition.value()], j->priority.total, j->spec.submit_time, j->spec.id, j});
  }
  sort_ranked(keys);
  for (std::size_t i = 0; i < keys.size(); ++i) ordered[i] = keys[i].job;
}

void Scheduler::keep_rank_order(std::span<JobRecord* const> ranked, std::span<JobRecord* const> unranked) {
  // A job cancelled in this pass has left waiting_ already.
  const auto still_waiting = [&](const JobRecord* j) { return j->slot < waiting_.size() && waiting_[j->slot] == j; };
  std::vector<JobRecord*> next;
  next.reserve(waiting_.size());
  for (JobRecord* j : ranked) {
    if (still_waiting(j)) next.push_back(j);
  }
  for (JobRecord* j : unranked) {
    if (still_waiting(j)) next.push_back(j);
  }
  // ranked and unranked are disjoint and together were all of waiting_.
  assert(next.size() == waiting_.size());
  if (next.size() != waiting_.size()) return;
  waiting_.swap(next);
  for (std::size_t i = 0; i < waiting_.size(); ++i) waiting_[i]->slot = i;
}

}  // namespace fairway
