#include "coordinator/core/availability_profile.h"

#include <algorithm>
#include <cassert>

namespace fairway {
namespace {

// Blocks split past this size; lookups cost O(blocks + kTargetBlock).
constexpr std::size_t kTargetBlock = 64;
constexpr std::size_t kMaxBlock = 2 * kTargetBlock;

Duration at_least_one_second(Duration d) {
  return d < Duration::seconds(1) ? Duration::seconds(1) : d;
}

}  // namespace

void AvailabilityProfile::Block::recompute_bounds() {
  ResourceAmount lo = stored.front();
  ResourceAmount hi = stored.front();
  for (const auto& v : stored) {
    lo = componentwise_min(lo, v);
    hi = componentwise_max(hi, v);
  }
  min = lo + lazy;
  max = hi + lazy;
}

void AvailabilityProfile::push_back_point(Time t, ResourceAmount value) {
  if (blocks_.empty() || blocks_.back().times.size() >= kTargetBlock) {
    blocks_.emplace_back();
    blocks_.back().times.reserve(kMaxBlock);
    blocks_.back().stored.reserve(kMaxBlock);
  }
  Block& b = blocks_.back();
  b.times.push_back(t);
  b.stored.push_back(value);
}

void AvailabilityProfile::reset(Time now, ResourceAmount free_now,
                                std::span<const ResourceRelease> releases) {
  origin_ = now;
  blocks_.clear();
  std::vector<ResourceRelease> sorted(releases.begin(), releases.end());
  std::sort(sorted.begin(), sorted.end(),
            [](const ResourceRelease& a, const ResourceRelease& b) { return a.at < b.at; });
  ResourceAmount level = free_now;
  std::size_t i = 0;
  for (; i < sorted.size() && sorted[i].at <= now; ++i) level += sorted[i].amount;
  push_back_point(now, level);
  while (i < sorted.size()) {
    Time t = sorted[i].at;
    for (; i < sorted.size() && sorted[i].at == t; ++i) level += sorted[i].amount;
    push_back_point(t, level);
  }
  for (Block& b : blocks_) b.recompute_bounds();
}

AvailabilityProfile::Pos AvailabilityProfile::segment_of(Time t) const {
  assert(!blocks_.empty() && t >= origin_);
  auto it = std::upper_bound(blocks_.begin(), blocks_.end(), t,
                             [](Time v, const Block& b) { return v < b.times.front(); });
  auto block = static_cast<std::uint32_t>(it - blocks_.begin() - 1);
  const auto& times = blocks_[block].times;
  auto jt = std::upper_bound(times.begin(), times.end(), t);
  return {block, static_cast<std::uint32_t>(jt - times.begin() - 1)};
}

AvailabilityProfile::Pos AvailabilityProfile::next(Pos p) const {
  if (p.index + 1 < blocks_[p.block].times.size()) return {p.block, p.index + 1};
  return {p.block + 1, 0};
}

ResourceAmount AvailabilityProfile::free_at(Time t) const {
  return value_of(segment_of(max(t, origin_)));
}

AvailabilityProfile::Pos AvailabilityProfile::first_covering(Pos p, ResourceAmount need) const {
  while (valid(p)) {
    const Block& b = blocks_[p.block];
    if (p.index == 0 && !b.max.covers(need)) {
      p = {p.block + 1, 0};
      continue;
    }
    const ResourceAmount rel = need - b.lazy;
    for (std::uint32_t i = p.index; i < b.stored.size(); ++i) {
      if (b.stored[i].covers(rel)) return {p.block, i};
    }
    p = {p.block + 1, 0};
  }
  return p;
}

AvailabilityProfile::Pos AvailabilityProfile::first_not_covering(Pos p,
                                                                 ResourceAmount need) const {
  while (valid(p)) {
    const Block& b = blocks_[p.block];
    if (p.index == 0 && b.min.covers(need)) {
      p = {p.block + 1, 0};
      continue;
    }
    const ResourceAmount rel = need - b.lazy;
    for (std::uint32_t i = p.index; i < b.stored.size(); ++i) {
      if (!b.stored[i].covers(rel)) return {p.block, i};
    }
    p = {p.block + 1, 0};
  }
  return p;
}

bool AvailabilityProfile::fits(Time start, Duration duration, ResourceAmount need) const {
  duration = at_least_one_second(duration);
  Pos p = segment_of(max(start, origin_));
  if (!value_of(p).covers(need)) return false;
  Pos q = first_not_covering(p, need);
  return !valid(q) || time_of(q) >= start + duration;
}

Time AvailabilityProfile::earliest_start(ResourceAmount need, Duration duration,
                                         Time not_before) const {
  duration = at_least_one_second(duration);
  not_before = max(not_before, origin_);
  Pos p = segment_of(not_before);
  while (true) {
    p = first_covering(p, need);
    if (!valid(p)) return Time::never();
    const Time start = max(time_of(p), not_before);
    Pos q = first_not_covering(p, need);
    if (!valid(q) || time_of(q) >= start + duration) return start;
    p = q;
  }
}

Time AvailabilityProfile::next_change_after(Time t) const {
  Pos p = next(segment_of(max(t, origin_)));
  return valid(p) ? time_of(p) : Time::never();
}

std::size_t AvailabilityProfile::breakpoints() const {
  std::size_t n = 0;
  for (const Block& b : blocks_) n += b.times.size();
  return n;
}

AvailabilityProfile::Pos AvailabilityProfile::split_at(Time t) {
  Pos p = segment_of(t);
  if (time_of(p) == t) return p;
  Block& b = blocks_[p.block];
  const std::uint32_t at = p.index + 1;
  b.times.insert(b.times.begin() + at, t);
  b.stored.insert(b.stored.begin() + at, b.stored[p.index]);  // same value: bounds hold
  if (b.times.size() <= kMaxBlock) return {p.block, at};
  // Split the full block in two halves; both keep the pending add.
  Block tail;
  const std::size_t half = b.times.size() / 2;
  tail.times.assign(b.times.begin() + static_cast<std::ptrdiff_t>(half), b.times.end());
  tail.stored.assign(b.stored.begin() + static_cast<std::ptrdiff_t>(half), b.stored.end());
  tail.lazy = b.lazy;
  b.times.resize(half);
  b.stored.resize(half);
  b.recompute_bounds();
  tail.recompute_bounds();
  blocks_.insert(blocks_.begin() + p.block + 1, std::move(tail));
  if (at < half) return {p.block, at};
  return {p.block + 1, static_cast<std::uint32_t>(at - half)};
}

void AvailabilityProfile::add_range(Pos from, Pos to, ResourceAmount delta) {
  // `to` is exclusive; an invalid `to` means "to the end of time".
  const std::uint32_t last_block = valid(to) ? to.block : static_cast<std::uint32_t>(blocks_.size());
  for (std::uint32_t bi = from.block; bi <= last_block && bi < blocks_.size(); ++bi) {
    Block& b = blocks_[bi];
    const std::uint32_t lo = bi == from.block ? from.index : 0;
    const std::uint32_t hi = (valid(to) && bi == to.block) ? to.index
                                                           : static_cast<std::uint32_t>(b.times.size());
    if (lo >= hi) continue;
    if (lo == 0 && hi == b.times.size()) {
      b.lazy += delta;
      b.min += delta;
      b.max += delta;
    } else {
      for (std::uint32_t i = lo; i < hi; ++i) b.stored[i] += delta;
      b.recompute_bounds();
    }
  }
}

void AvailabilityProfile::reserve(Time start, Duration duration, ResourceAmount amount) {
  duration = at_least_one_second(duration);
  start = max(start, origin_);
  const Time end = start + duration;
  // Split at the end first: splitting may move blocks, so positions are taken after.
  if (!end.is_never()) split_at(end);
  split_at(start);
  const Pos from = segment_of(start);
  const Pos to = end.is_never() ? Pos{static_cast<std::uint32_t>(blocks_.size()), 0}
                                : segment_of(end);
  add_range(from, to, ResourceAmount{} - amount);
}

}  // namespace fairway
