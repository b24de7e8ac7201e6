// Free resources of a pool of nodes as a step function of future time: what running jobs
// will release and what reservations will take. Backfill asks it when a job could start.
//
// Not thread-safe; one pass owns one profile. Pure: time comes in as arguments.
//
// The step function is kept in blocks of breakpoints, each block with a pending add
// ("lazy") and its min and max, so that a query skips whole blocks and a reservation
// over a long span touches O(blocks) values: conservative backfill over 100k jobs needs
// this, where a flat list would make every reservation O(breakpoints).
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "coordinator/core/resource_amount.h"
#include "shared/base/time.h"

namespace fairway {

struct ResourceRelease {
  Time at;
  ResourceAmount amount;
};

class AvailabilityProfile {
 public:
  // Starts the function at `now` with `free_now`; each release adds its amount from its
  // time on. Releases need not be sorted; those at or before `now` count as free now.
  // Without `with_memory` (a pool whose nodes declare no memory) every memory amount is
  // taken as 0 and the memory column is not kept: planning it would change nothing.
  void reset(Time now, ResourceAmount free_now, std::span<const ResourceRelease> releases,
             bool with_memory = true);

  Time origin() const { return origin_; }
  ResourceAmount free_at(Time t) const;

  // True when `need` is free during all of [start, start + duration).
  bool fits(Time start, Duration duration, ResourceAmount need) const;

  // The earliest t >= not_before with `need` free during [t, t + duration);
  // Time::never() when the pool will never have that much free.
  Time earliest_start(ResourceAmount need, Duration duration, Time not_before) const;

  // Takes `amount` during [start, start + duration). The caller checked it fits.
  void reserve(Time start, Duration duration, ResourceAmount amount);

  // The first breakpoint strictly after t (Time::never() if none): the next moment the
  // free amount changes.
  Time next_change_after(Time t) const;

  std::size_t breakpoints() const;

 private:
  // Columns rather than structs: the hot scans compare one column of int64 in chunks.
  struct Block {
    std::vector<Time> times;          // segment i covers [times[i], next breakpoint)
    std::vector<std::int64_t> cores;  // real value = stored + lazy
    std::vector<std::int64_t> gpus;
    std::vector<std::int64_t> memory;  // empty when the profile keeps no memory
    ResourceAmount lazy;
    ResourceAmount min, max;  // componentwise, real values
    ResourceAmount stored(std::size_t i) const { return {cores[i], gpus[i], memory.empty() ? 0 : memory[i]}; }
    void insert(std::size_t at, Time t, ResourceAmount v, bool with_memory);
    void recompute_bounds();
  };
  struct Pos {
    std::uint32_t block;
    std::uint32_t index;
    auto operator<=>(const Pos&) const = default;
  };

  Pos segment_of(Time t) const;  // the segment containing t (t >= origin_)
  Time time_of(Pos p) const { return blocks_[p.block].times[p.index]; }
  ResourceAmount value_of(Pos p) const {
    const Block& b = blocks_[p.block];
    return b.stored(p.index) + b.lazy;
  }
  bool valid(Pos p) const { return p.block < blocks_.size(); }
  Pos next(Pos p) const;
  template <bool kCovering>
  Pos first_where(Pos from, ResourceAmount need) const;
  Pos first_covering(Pos from, ResourceAmount need) const;
  Pos first_not_covering(Pos from, ResourceAmount need) const;
  // The last segment in [from, to) whose value does not cover `need`; end() if none.
  Pos last_not_covering(Pos from, Pos to, ResourceAmount need) const;
  Pos end() const { return {static_cast<std::uint32_t>(blocks_.size()), 0}; }
  Pos split_at(Time t);                                    // ensures a breakpoint at t; returns it
  void add_range(Pos from, Pos to, ResourceAmount delta);  // [from, to), to may be end
  void push_back_point(Time t, ResourceAmount value);

  ResourceAmount kept(ResourceAmount a) const {
    if (!with_memory_) a.memory_mb = 0;
    return a;
  }

  Time origin_;
  bool with_memory_ = true;
  std::vector<Block> blocks_;
  struct AmountHash {
    std::size_t operator()(const ResourceAmount& a) const {
      return std::hash<std::int64_t>()(a.cores * 1000003 ^ a.gpus * 7919 ^ a.memory_mb);
    }
  };
  // Per amount asked for: no segment before this time holds it. Reservations only take
  // resources away, so the bound stays true until reset(); it lets conservative backfill
  // skip the saturated near future instead of rescanning it for every job.
  mutable std::unordered_map<ResourceAmount, Time, AmountHash> first_fit_bound_;
};

}  // namespace fairway
