// Usage over an exact sliding window: what ran within the last W, kept as 1-hour buckets
// so that usage older than W drops out entirely (Titan's 8 weeks), either counted in full
// or fading linearly to nothing over W (Kebnekaise's 50 days, "decays gradually").
// Pure arithmetic, time comes in as arguments; not thread-safe.
#pragma once

#include <cstdint>
#include <deque>

#include "shared/base/time.h"

namespace fairway {

// Accrual is exact to the second; only the bucket straddling the window's trailing edge is
// pro-rated as if its usage were spread evenly over its hour, so value_at is off by at most
// one bucket's usage (the rate that ran in that hour x 1 hour).
class WindowedUsage {
 public:
  static constexpr std::int64_t kBucketSeconds = 3600;

  // Usage within (now - window, now].
  double value_at(Time now, Duration window) const;
  // The same usage, each unit weighted 1 - age / window: usage of a moment ago counts in
  // full, usage from half a window ago counts half, older than the window nothing.
  // Exact within the window (the weight is linear, so each bucket's first moment gives
  // it); the one bucket straddling the trailing edge is dropped, off by at most its usage
  // x 1 h / window.
  double linear_value_at(Time now, Duration window) const;
  // Changes the accrual rate from `now` on (a job starting: +units/s, ending: -units/s).
  void add_rate(Time now, double delta, Duration window);
  double rate() const { return rate_; }
  std::size_t bucket_count() const { return buckets_.size(); }

 private:
  struct Bucket {
    std::int64_t index;  // covers [index * kBucketSeconds, (index + 1) * kBucketSeconds)
    double units;
    double moment;  // sum of units x the second they accrued at (their first moment)
  };
  // Moves accrual up to `now` into buckets and drops buckets wholly outside the window.
  void advance(Time now, Duration window);

  std::deque<Bucket> buckets_;  // ascending index
  double sum_ = 0;              // of buckets_
  double moment_ = 0;           // of buckets_
  double rate_ = 0;
  Time at_;  // accrual before this instant is in buckets_
};

}  // namespace fairway
