// sbatch --array: the task indices of a job array, how many of its tasks may run at once,
// and the set of task positions not yet made into jobs. Plain values; no shared state.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shared/base/ids.h"
#include "shared/base/result.h"

namespace fairway {

// The largest index any array may use; a cluster's limits.max_array_size is at most one more.
inline constexpr std::int32_t kMaxArrayIndex = 4'000'000;

// first, first+step, ... up to last (last is one of them once normalized).
struct ArrayIndexRange {
  std::int32_t first = 0;
  std::int32_t last = 0;
  std::int32_t step = 1;
  std::int64_t count() const { return (static_cast<std::int64_t>(last) - first) / step + 1; }
  bool operator==(const ArrayIndexRange&) const = default;
};

// A task's position is its rank among the indices (0 for the lowest): task jobs are
// numbered array id + 1 + position, so an id names a task without a table of them.
struct ArraySpec {
  std::vector<ArrayIndexRange> ranges;  // ascending and disjoint (parse_array_spec)
  std::int32_t max_running = 0;         // %N; 0: no limit
  bool empty() const { return ranges.empty(); }
  std::int64_t count() const;
  std::int32_t min_index() const { return ranges.front().first; }
  std::int32_t max_index() const { return ranges.back().last; }
  // SLURM_ARRAY_TASK_STEP: the step of a single range, else 1.
  std::int32_t step() const { return ranges.size() == 1 ? ranges.front().step : 1; }
  // The index at `position` (0 <= position < count()).
  std::int32_t index_at(std::int64_t position) const;
  std::optional<std::int64_t> position_of(std::int32_t index) const;
  bool operator==(const ArraySpec&) const = default;
};

// "1-100%10,200" is refused (the limit ends the list); "1-100,200,300-400:2%10" is
// what sbatch takes. Indices run from 0 to max_index; errors name the offending piece.
Result<ArraySpec> parse_array_spec(std::string_view text, std::int32_t max_index);
// The canonical text parse_array_spec reads back: "1-100,200,300-400:2%10".
std::string format_array_spec(const ArraySpec& spec);
// Ascending distinct indices as squeue folds them: "1-3,7,9-13:2".
std::string format_index_list(std::span<const std::int32_t> ascending);

// What one task of an array is told (SLURM_ARRAY_JOB_ID, _TASK_ID, _TASK_COUNT, _TASK_MIN,
// _TASK_MAX, _TASK_STEP; %A and %a in output names). array_job 0: not a task of an array.
struct ArrayTaskFacts {
  JobId array_job;
  std::int32_t task = 0;
  std::int32_t count = 0;
  std::int32_t min = 0;
  std::int32_t max = 0;
  std::int32_t step = 1;
  bool is_task() const { return array_job.value() != 0; }
  bool operator==(const ArrayTaskFacts&) const = default;
};

// Task positions as ascending disjoint half-open intervals: an array of 100,000 tasks
// waiting costs one interval, however many are later taken or cancelled one by one.
class TaskPositions {
 public:
  TaskPositions() = default;
  explicit TaskPositions(std::int64_t count);
  bool empty() const { return intervals_.empty(); }
  std::int64_t size() const { return size_; }
  bool contains(std::int64_t position) const;
  // Removes and returns the lowest position (the set must not be empty).
  std::int64_t take_front();
  // Removes one position; false when it was not there.
  bool erase(std::int64_t position);
  void clear() {
    intervals_.clear();
    size_ = 0;
  }
  const std::vector<std::pair<std::int64_t, std::int64_t>>& intervals() const { return intervals_; }

 private:
  std::vector<std::pair<std::int64_t, std::int64_t>> intervals_;  // [begin, end)
  std::int64_t size_ = 0;
};

}  // namespace fairway
