// Ranking a pass's waiting jobs; see rank_order.h.
#include "coordinator/core/rank_order.h"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace fairway {
namespace {

// Past this many ordered runs, merging them costs about what sorting does.
constexpr std::size_t kMaxRunsToMerge = 32;

}  // namespace

bool ranks_before(const RankKey& a, const RankKey& b) {
  if (a.tier != b.tier) return a.tier > b.tier;
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.submit != b.submit) return a.submit < b.submit;
  return a.id < b.id;
}

void sort_ranked(std::vector<RankKey>& keys) {
  std::vector<std::size_t> bounds{0};  // where each ordered run begins, then the end
  for (std::size_t i = 1; i < keys.size(); ++i) {
    if (!ranks_before(keys[i], keys[i - 1])) continue;
    bounds.push_back(i);
    if (bounds.size() > kMaxRunsToMerge) {
      std::sort(keys.begin(), keys.end(), ranks_before);
      return;
    }
  }
  bounds.push_back(keys.size());
  // Merge neighbouring runs pairwise until one is left.
  while (bounds.size() > 2) {
    const std::size_t runs = bounds.size() - 1;
    std::vector<std::size_t> merged{0};
    for (std::size_t r = 0; r + 1 < runs; r += 2) {
      std::inplace_merge(keys.begin() + static_cast<std::ptrdiff_t>(bounds[r]),
                         keys.begin() + static_cast<std::ptrdiff_t>(bounds[r + 1]),
                         keys.begin() + static_cast<std::ptrdiff_t>(bounds[r + 2]), ranks_before);
      merged.push_back(bounds[r + 2]);
    }
    if (runs % 2 == 1) merged.push_back(bounds[runs]);
    bounds = std::move(merged);
  }
}

}  // namespace fairway
