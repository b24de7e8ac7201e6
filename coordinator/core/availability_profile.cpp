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
  const auto [clo, chi] = std::minmax_element(cores.begin(), cores.end());
  const auto [glo, ghi] = std::minmax_element(gpus.begin(), gpus.end());
  std::int64_t mlo = 0, mhi = 0;
  if (!memory.empty()) {
    const auto [lo, hi] = std::minmax_element(memory.begin(), memory.end());
    mlo = *lo;
    mhi = *hi;
  }
  min = ResourceAmount{*clo, *glo, mlo} + lazy;
  max = ResourceAmount{*chi, *ghi, mhi} + lazy;
}

void AvailabilityProfile::Block::insert(std::size_t at, Time t, ResourceAmount v, bool with_memory) {
  const auto off = static_cast<std::ptrdiff_t>(at);
  times.insert(times.begin() + off, t);
  cores.insert(cores.begin() + off, v.cores);
  gpus.insert(gpus.begin() + off, v.gpus);
  if (with_memory) memory.insert(memory.begin() + off, v.memory_mb);
}

namespace {

// Index of the first i in [from, n) with pred(i), else n. Checks eight at a time without
// branches so the compiler can vectorise the common case of a long run of misses.
template <typename Pred>
std::uint32_t find_first(std::uint32_t from, std::uint32_t n, Pred pred) {
  std::uint32_t i = from;
  for (; i + 8 <= n; i += 8) {
    bool any = false;
    for (std::uint32_t k = 0; k < 8; ++k) any |= pred(i + k);
    if (any) break;
  }
  for (; i < n; ++i) {
    if (pred(i)) return i;
  }
  return n;
}

}  // namespace

void AvailabilityProfile::push_back_point(Time t, ResourceAmount value) {
  if (blocks_.empty() || blocks_.back().times.size() >= kTargetBlock) {
    blocks_.emplace_back();
    blocks_.back().times.reserve(kMaxBlock);
    blocks_.back().cores.reserve(kMaxBlock);
    blocks_.back().gpus.reserve(kMaxBlock);
    if (with_memory_) blocks_.back().memory.reserve(kMaxBlock);
  }
  Block& b = blocks_.back();
  b.times.push_back(t);
  b.cores.push_back(value.cores);
  b.gpus.push_back(value.gpus);
  if (with_memory_) b.memory.push_back(value.memory_mb);
}

void AvailabilityProfile::reset(Time now, ResourceAmount free_now, std::span<const ResourceRelease> releases,
                                bool with_memory) {
  origin_ = now;
  with_memory_ = with_memory;
  free_now = kept(free_now);
  blocks_.clear();
  first_fit_bound_.clear();
  std::vector<ResourceRelease> sorted(releases.begin(), releases.end());
  std::sort(sorted.begin(), sorted.end(),
            [](const ResourceRelease& a, const ResourceRelease& b) { return a.at < b.at; });
  ResourceAmount level = free_now;
  std::size_t i = 0;
  for (; i < sorted.size() && sorted[i].at <= now; ++i) level += kept(sorted[i].amount);
  push_back_point(now, level);
  while (i < sorted.size()) {
    Time t = sorted[i].at;
    for (; i < sorted.size() && sorted[i].at == t; ++i) level += kept(sorted[i].amount);
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

template <bool kCovering>
AvailabilityProfile::Pos AvailabilityProfile::first_where(Pos p, ResourceAmount need) const {
  need = kept(need);
  while (valid(p)) {
    const Block& b = blocks_[p.block];
    // A whole block is skipped when its bounds rule every segment out.
    const bool none_can_match = kCovering ? !b.max.covers(need) : b.min.covers(need);
    if (p.index == 0 && none_can_match) {
      p = {p.block + 1, 0};
      continue;
    }
    const ResourceAmount rel = need - b.lazy;
    const auto n = static_cast<std::uint32_t>(b.times.size());
    const std::int64_t* c = b.cores.data();
    const std::int64_t* g = b.gpus.data();
    const std::int64_t* m = b.memory.data();
    // Free GPUs and memory never go below zero, so a job asking none of either is bounded
    // by cores alone: the common case keeps one column hot.
    std::uint32_t i;
    if (need.gpus <= 0 && need.memory_mb <= 0) {
      i = find_first(p.index, n, [&](std::uint32_t k) { return (c[k] >= rel.cores) == kCovering; });
    } else if (need.memory_mb <= 0) {
      i = find_first(p.index, n,
                     [&](std::uint32_t k) { return (c[k] >= rel.cores && g[k] >= rel.gpus) == kCovering; });
    } else {
      i = find_first(p.index, n, [&](std::uint32_t k) {
        return (c[k] >= rel.cores && g[k] >= rel.gpus && m[k] >= rel.memory_mb) == kCovering;
      });
    }
    if (i < n) return {p.block, i};
    p = {p.block + 1, 0};
  }
  return p;
}

AvailabilityProfile::Pos AvailabilityProfile::first_covering(Pos p, ResourceAmount need) const {
  return first_where<true>(p, need);
}

AvailabilityProfile::Pos AvailabilityProfile::first_not_covering(Pos p, ResourceAmount need) const {
  return first_where<false>(p, need);
}

bool AvailabilityProfile::fits(Time start, Duration duration, ResourceAmount need) const {
  duration = at_least_one_second(duration);
  need = kept(need);
  Pos p = segment_of(max(start, origin_));
  if (!value_of(p).covers(need)) return false;
  Pos q = first_not_covering(p, need);
  return !valid(q) || time_of(q) >= start + duration;
}

AvailabilityProfile::Pos AvailabilityProfile::last_not_covering(Pos from, Pos to, ResourceAmount need) const {
  if (!(from < to)) return end();
  need = kept(need);
  // Walk blocks right to left; a block whose minimum covers has no dip and is skipped.
  std::uint32_t bi = valid(to) ? to.block : static_cast<std::uint32_t>(blocks_.size() - 1);
  while (true) {
    const Block& b = blocks_[bi];
    const std::uint32_t lo = bi == from.block ? from.index : 0;
    const std::uint32_t hi =
        (valid(to) && bi == to.block) ? to.index : static_cast<std::uint32_t>(b.times.size());
    if (lo < hi && !(lo == 0 && hi == b.times.size() && b.min.covers(need))) {
      const ResourceAmount rel = need - b.lazy;
      for (std::uint32_t i = hi; i > lo; --i) {
        if (b.cores[i - 1] < rel.cores || b.gpus[i - 1] < rel.gpus ||
            (with_memory_ && b.memory[i - 1] < rel.memory_mb)) {
          return {bi, i - 1};
        }
      }
    }
    if (bi == from.block) return end();
    --bi;
  }
}

Time AvailabilityProfile::earliest_start(ResourceAmount need, Duration duration, Time not_before) const {
  duration = at_least_one_second(duration);
  not_before = max(not_before, origin_);
  need = kept(need);
  auto bound = first_fit_bound_.try_emplace(need, origin_).first;
  const bool refines_bound = not_before <= bound->second;
  Pos p = first_covering(segment_of(max(not_before, bound->second)), need);
  if (refines_bound) bound->second = valid(p) ? time_of(p) : Time::never();
  // Invariant: every segment in [p, verified) covers `need`. Each round checks only the
  // window's unverified tail and, on finding dips, jumps past the last one: a jagged
  // profile then costs one round per window length, not one per dip.
  Pos verified = p;
  while (valid(p)) {
    const Time start = max(time_of(p), not_before);
    const Time window_end = start + duration;
    const Pos to = window_end.is_never() ? end() : next(segment_of(window_end - Duration::seconds(1)));
    const Pos from = verified < p ? p : verified;
    const Pos dip = last_not_covering(from, to, need);
    if (!valid(dip)) return start;
    verified = to;
    p = first_covering(next(dip), need);
  }
  return Time::never();
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
  b.insert(at, t, b.stored(p.index), with_memory_);  // same value as its segment: bounds hold
  if (b.times.size() <= kMaxBlock) return {p.block, at};
  // Split the full block in two halves; both keep the pending add.
  Block tail;
  const std::size_t half = b.times.size() / 2;
  tail.times.assign(b.times.begin() + static_cast<std::ptrdiff_t>(half), b.times.end());
  tail.cores.assign(b.cores.begin() + static_cast<std::ptrdiff_t>(half), b.cores.end());
  tail.gpus.assign(b.gpus.begin() + static_cast<std::ptrdiff_t>(half), b.gpus.end());
  if (with_memory_) tail.memory.assign(b.memory.begin() + static_cast<std::ptrdiff_t>(half), b.memory.end());
  tail.lazy = b.lazy;
  b.times.resize(half);
  b.cores.resize(half);
  b.gpus.resize(half);
  if (with_memory_) b.memory.resize(half);
  b.recompute_bounds();
  tail.recompute_bounds();
  blocks_.insert(blocks_.begin() + p.block + 1, std::move(tail));
  if (at < half) return {p.block, at};
  return {p.block + 1, static_cast<std::uint32_t>(at - half)};
}

void AvailabilityProfile::add_range(Pos from, Pos to, ResourceAmount delta) {
  delta = kept(delta);
  // `to` is exclusive; an invalid `to` means "to the end of time".
  const std::uint32_t last_block = valid(to) ? to.block : static_cast<std::uint32_t>(blocks_.size());
  for (std::uint32_t bi = from.block; bi <= last_block && bi < blocks_.size(); ++bi) {
    Block& b = blocks_[bi];
    const std::uint32_t lo = bi == from.block ? from.index : 0;
    const std::uint32_t hi =
        (valid(to) && bi == to.block) ? to.index : static_cast<std::uint32_t>(b.times.size());
    if (lo >= hi) continue;
    if (lo == 0 && hi == b.times.size()) {
      b.lazy += delta;
      b.min += delta;
      b.max += delta;
    } else {
      for (std::uint32_t i = lo; i < hi; ++i) {
        b.cores[i] += delta.cores;
        b.gpus[i] += delta.gpus;
      }
      if (with_memory_) {
        for (std::uint32_t i = lo; i < hi; ++i) b.memory[i] += delta.memory_mb;
      }
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
  const Pos to = end.is_never() ? Pos{static_cast<std::uint32_t>(blocks_.size()), 0} : segment_of(end);
  add_range(from, to, ResourceAmount{} - amount);
}

}  // namespace fairway
