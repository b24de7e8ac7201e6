// The bounded exact search behind choose_victims: the sets of exactly k items whose freed
// amounts could cover a need, best first (lowest summed priority, then summed rank), each
// confirmed by the caller's judge. Pure and generic, so tests can hold it to brute force.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "coordinator/core/resource_amount.h"

namespace fairway {

struct SearchItem {
  std::size_t id = 0;    // the caller's name for it (the same job in several spaces)
  ResourceAmount frees;  // what releasing it gives toward the need: never less than real
  double priority = 0;
  std::size_t rank = 0;  // the caller's order; equal priorities resolve to lower ranks
};

// One place a set may be drawn from (a node's victims, or the partition's): its items, in
// (priority, rank) order, and what is free there already; make_search_space fills the rest.
struct SearchSpace {
  std::vector<SearchItem> items;
  ResourceAmount base;
  // From position i on, the largest frees of any one item: bounds what a set could free.
  std::vector<ResourceAmount> frees_suffix_max;
  ResourceAmount frees_total;  // every item together
};

SearchSpace make_search_space(std::vector<SearchItem> items, const ResourceAmount& base);

struct SearchBest {
  std::vector<std::size_t> ids;
  double priority = 0;
  std::size_t rank_sum = 0;
};

// Work left to the search: subsets visited (partial ones included) and calls of the judge.
// Once either is spent the search stops and says so; what it found stays valid, but is no
// longer known to be the best.
struct SearchBudget {
  std::size_t steps = 0;
  std::size_t judgements = 0;
};

// Whether the caller's world really holds the need with these items released.
using SearchJudge = std::function<bool(std::span<const std::size_t> ids)>;

// Improves `best` with the best set of exactly `k` items of `space` whose frees plus its
// base cover `need` and that the judge accepts; a set is judged only when it would beat
// `best`. Returns false when the budget ran out.
bool search_sets_of_size(const SearchSpace& space, std::size_t k, const ResourceAmount& need,
                         const SearchJudge& judge, SearchBudget& budget, std::optional<SearchBest>& best);

}  // namespace fairway
