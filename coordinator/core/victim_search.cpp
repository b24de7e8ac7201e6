#include "coordinator/core/victim_search.h"

#include <algorithm>

namespace fairway {
namespace {

ResourceAmount times(const ResourceAmount& a, std::size_t n) {
  const auto k = static_cast<std::int64_t>(n);
  return {a.cores * k, a.gpus * k, a.memory_mb * k};
}

// A depth-first walk over sets of k positions in increasing order. Items are sorted by
// (priority, rank), so the cheapest way to finish a partial set is the next positions in
// order: once that cannot beat the best, no later position can either.
class Walk {
 public:
  Walk(const SearchSpace& s, std::size_t k, const ResourceAmount& need, const SearchJudge& judge,
       SearchBudget& budget, std::optional<SearchBest>& best)
      : s_(s), k_(k), need_(need), judge_(judge), budget_(budget), best_(best) {}

  // False when the budget ran out.
  bool run() {
    chosen_.clear();
    return go(0, {}, 0, 0);
  }

 private:
  bool beats(double priority, std::size_t rank) const {
    return !best_ || priority < best_->priority || (priority == best_->priority && rank < best_->rank_sum);
  }

  bool judge(double priority, std::size_t rank) {
    if (budget_.judgements == 0) return false;
    --budget_.judgements;
    std::vector<std::size_t> ids;
    ids.reserve(chosen_.size());
    for (std::size_t pos : chosen_) ids.push_back(s_.items[pos].id);
    if (judge_(ids)) best_ = SearchBest{std::move(ids), priority, rank};
    return true;
  }

  bool go(std::size_t from, const ResourceAmount& freed, double priority, std::size_t rank) {
    const std::size_t left = k_ - chosen_.size();
    if (left == 0) {
      if (!(s_.base + freed).covers(need_) || !beats(priority, rank)) return true;
      return judge(priority, rank);
    }
    const std::size_t n = s_.items.size();
    for (std::size_t i = from; i + left <= n; ++i) {
      if (budget_.steps == 0) return false;
      --budget_.steps;
      double p = priority;
      std::size_t r = rank;
      for (std::size_t j = i; j < i + left; ++j) {
        p += s_.items[j].priority;
        r += s_.items[j].rank;
      }
      if (!beats(p, r)) break;
      const SearchItem& item = s_.items[i];
      const ResourceAmount most = freed + item.frees + times(s_.frees_suffix_max[i + 1], left - 1);
      if (!(s_.base + most).covers(need_)) continue;
      chosen_.push_back(i);
      if (!go(i + 1, freed + item.frees, priority + item.priority, rank + item.rank)) return false;
      chosen_.pop_back();
    }
    return true;
  }

  const SearchSpace& s_;
  std::size_t k_;
  const ResourceAmount& need_;
  const SearchJudge& judge_;
  SearchBudget& budget_;
  std::optional<SearchBest>& best_;
  std::vector<std::size_t> chosen_;
};

}  // namespace

SearchSpace make_search_space(std::vector<SearchItem> items, const ResourceAmount& base) {
  std::sort(items.begin(), items.end(), [](const SearchItem& a, const SearchItem& b) {
    if (a.priority != b.priority) return a.priority < b.priority;
    return a.rank < b.rank;
  });
  SearchSpace s;
  s.base = base;
  s.frees_suffix_max.assign(items.size() + 1, ResourceAmount{});
  for (std::size_t i = items.size(); i-- > 0;) {
    s.frees_suffix_max[i] = componentwise_max(items[i].frees, s.frees_suffix_max[i + 1]);
    s.frees_total += items[i].frees;
  }
  s.items = std::move(items);
  return s;
}

bool search_sets_of_size(const SearchSpace& space, std::size_t k, const ResourceAmount& need,
                         const SearchJudge& judge, SearchBudget& budget, std::optional<SearchBest>& best) {
  if (k == 0 || k > space.items.size()) return true;
  if (!(space.base + space.frees_total).covers(need)) return true;
  return Walk(space, k, need, judge, budget, best).run();
}

}  // namespace fairway
