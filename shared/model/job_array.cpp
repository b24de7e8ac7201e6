// Parsing and printing of sbatch --array, and the task-position set.
#include "shared/model/job_array.h"

#include <algorithm>
#include <cassert>
#include <charconv>

#include "shared/base/try.h"

namespace fairway {
namespace {

Result<std::int32_t> read_index(std::string_view piece, std::string_view whole, std::int32_t max_index) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), v);
  if (piece.empty() || ec != std::errc() || end != piece.data() + piece.size() || v < 0) {
    return invalid_argument("--array: '" + std::string(piece) + "' in '" + std::string(whole) +
                            "' is not a task index (a whole number >= 0)");
  }
  if (v > max_index) {
    return invalid_argument("--array: index " + std::string(piece) + " is over the largest allowed, " +
                            std::to_string(max_index) + " (limits.max_array_size - 1)");
  }
  return static_cast<std::int32_t>(v);
}

// Ascending distinct indices into ranges: runs of one step become one range.
std::vector<ArrayIndexRange> compress(std::span<const std::int32_t> v) {
  std::vector<ArrayIndexRange> out;
  std::size_t i = 0;
  while (i < v.size()) {
    std::size_t j = i + 1;
    if (j < v.size()) {
      const std::int32_t step = v[j] - v[i];
      while (j + 1 < v.size() && v[j + 1] - v[j] == step) ++j;
      // Two indices a step apart read better as "4,9" unless the step is 1.
      if (j - i >= 2 || step == 1) {
        out.push_back({v[i], v[j], step});
        i = j + 1;
        continue;
      }
    }
    out.push_back({v[i], v[i], 1});
    ++i;
  }
  return out;
}

std::string format_ranges(const std::vector<ArrayIndexRange>& ranges) {
  std::string out;
  for (const ArrayIndexRange& r : ranges) {
    if (!out.empty()) out += ',';
    out += std::to_string(r.first);
    if (r.last != r.first) {
      out += (r.count() == 2 && r.step != 1) ? "," : "-";
      out += std::to_string(r.last);
      if (r.step != 1 && r.count() > 2) out += ":" + std::to_string(r.step);
    }
  }
  return out;
}

}  // namespace

std::int64_t ArraySpec::count() const {
  std::int64_t n = 0;
  for (const ArrayIndexRange& r : ranges) n += r.count();
  return n;
}

std::int32_t ArraySpec::index_at(std::int64_t position) const {
  for (const ArrayIndexRange& r : ranges) {
    if (position < r.count()) return static_cast<std::int32_t>(r.first + position * r.step);
    position -= r.count();
  }
  assert(false && "array position out of range");
  return -1;
}

std::optional<std::int64_t> ArraySpec::position_of(std::int32_t index) const {
  std::int64_t before = 0;
  for (const ArrayIndexRange& r : ranges) {
    if (index >= r.first && index <= r.last && (index - r.first) % r.step == 0) {
      return before + (index - r.first) / r.step;
    }
    before += r.count();
  }
  return std::nullopt;
}

Result<ArraySpec> parse_array_spec(std::string_view text, std::int32_t max_index) {
  ArraySpec spec;
  std::string_view list = text;
  if (const auto pct = text.find('%'); pct != std::string_view::npos) {
    list = text.substr(0, pct);
    const std::string_view limit = text.substr(pct + 1);
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(limit.data(), limit.data() + limit.size(), v);
    if (limit.empty() || ec != std::errc() || end != limit.data() + limit.size() || v < 1 ||
        v > 1'000'000'000) {
      return invalid_argument("--array: the running-task limit '%" + std::string(limit) + "' in '" +
                              std::string(text) + "' is not a whole number >= 1");
    }
    spec.max_running = static_cast<std::int32_t>(v);
  }
  if (list.empty()) return invalid_argument("--array: '" + std::string(text) + "' lists no task indices");
  std::vector<ArrayIndexRange> given;
  std::size_t from = 0;
  while (from <= list.size()) {
    const std::size_t comma = std::min(list.find(',', from), list.size());
    const std::string_view item = list.substr(from, comma - from);
    from = comma + 1;
    std::string_view bounds = item;
    std::int32_t step = 1;
    if (const auto colon = item.find(':'); colon != std::string_view::npos) {
      bounds = item.substr(0, colon);
      const std::string_view s = item.substr(colon + 1);
      std::int64_t v = 0;
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < 1 || v > max_index + 1LL) {
        return invalid_argument("--array: the step '" + std::string(s) + "' in '" + std::string(item) +
                                "' is not a whole number >= 1");
      }
      step = static_cast<std::int32_t>(v);
    }
    const auto dash = bounds.find('-');
    FAIRWAY_TRY_ASSIGN(first, read_index(bounds.substr(0, dash), text, max_index));
    std::int32_t last = first;
    if (dash != std::string_view::npos) {
      FAIRWAY_TRY_ASSIGN(l, read_index(bounds.substr(dash + 1), text, max_index));
      last = l;
    } else if (step != 1) {
      return invalid_argument("--array: '" + std::string(item) + "' has a step but no range");
    }
    if (last < first) {
      return invalid_argument("--array: the range '" + std::string(bounds) + "' ends before it starts");
    }
    // The last index the step reaches, so that a range says exactly what it holds.
    last = static_cast<std::int32_t>(first + (static_cast<std::int64_t>(last) - first) / step * step);
    if (first == last) {
      given.push_back({first, first, 1});
    } else if (step != 1 && last - first == step) {
      // Two indices a step apart are two singles, as format_array_spec writes them back.
      given.push_back({first, first, 1});
      given.push_back({last, last, 1});
    } else {
      given.push_back({first, last, step});
    }
  }
  std::sort(given.begin(), given.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  bool disjoint = true;
  for (std::size_t i = 1; i < given.size(); ++i) disjoint = disjoint && given[i].first > given[i - 1].last;
  if (disjoint) {
    // The common case ("0-99999", "1-100,200"): kept as given, never spelled out index by
    // index, since every stored task request is decoded again at its start.
    spec.ranges = std::move(given);
    return spec;
  }
  // Lists, overlaps and duplicates: spelled out once, merged and folded again.
  std::vector<std::int32_t> indices;
  for (const ArrayIndexRange& r : given) {
    for (std::int64_t i = r.first; i <= r.last; i += r.step) indices.push_back(static_cast<std::int32_t>(i));
  }
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  spec.ranges = compress(indices);
  return spec;
}

std::string format_array_spec(const ArraySpec& spec) {
  std::string out = format_ranges(spec.ranges);
  if (spec.max_running > 0) out += "%" + std::to_string(spec.max_running);
  return out;
}

std::string format_index_list(std::span<const std::int32_t> ascending) {
  return format_ranges(compress(ascending));
}

TaskPositions::TaskPositions(std::int64_t count) {
  if (count > 0) intervals_.emplace_back(0, count);
  size_ = std::max<std::int64_t>(count, 0);
}

bool TaskPositions::contains(std::int64_t position) const {
  auto it = std::upper_bound(intervals_.begin(), intervals_.end(), position,
                             [](std::int64_t p, const auto& iv) { return p < iv.first; });
  return it != intervals_.begin() && position < std::prev(it)->second;
}

std::int64_t TaskPositions::take_front() {
  assert(!intervals_.empty());
  const std::int64_t p = intervals_.front().first++;
  if (intervals_.front().first == intervals_.front().second) intervals_.erase(intervals_.begin());
  --size_;
  return p;
}

bool TaskPositions::erase(std::int64_t position) {
  auto it = std::upper_bound(intervals_.begin(), intervals_.end(), position,
                             [](std::int64_t p, const auto& iv) { return p < iv.first; });
  if (it == intervals_.begin()) return false;
  --it;
  if (position >= it->second) return false;
  --size_;
  if (it->first == position) {
    if (++it->first == it->second) intervals_.erase(it);
  } else if (position + 1 == it->second) {
    --it->second;
  } else {
    const std::int64_t end = it->second;
    it->second = position;
    intervals_.insert(std::next(it), {position + 1, end});
  }
  return true;
}

}  // namespace fairway
