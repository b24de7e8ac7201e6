#include "coordinator/core/windowed_usage.h"

#include <algorithm>

namespace fairway {
namespace {

constexpr std::int64_t kB = WindowedUsage::kBucketSeconds;

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

// The part of bucket `index` that lies before `cutoff` (seconds), as a fraction in [0, 1].
double expired_fraction(std::int64_t index, std::int64_t cutoff) {
  const std::int64_t start = index * kB;
  if (start + kB <= cutoff) return 1.0;
  if (start >= cutoff) return 0.0;
  return static_cast<double>(cutoff - start) / static_cast<double>(kB);
}

}  // namespace

double WindowedUsage::value_at(Time now, Duration window) const {
  if (now < at_) now = at_;
  const std::int64_t cutoff = now.seconds() - window.count();
  double v = sum_;
  for (const Bucket& b : buckets_) {
    const double f = expired_fraction(b.index, cutoff);
    if (f == 0.0) break;
    v -= b.units * f;
  }
  // Accrual not yet in buckets, clipped to the window.
  const std::int64_t from = std::max(at_.seconds(), cutoff);
  if (now.seconds() > from) v += rate_ * static_cast<double>(now.seconds() - from);
  return v < 0 ? 0.0 : v;
}

double WindowedUsage::linear_value_at(Time now, Duration window) const {
  if (now < at_) now = at_;
  const double w = static_cast<double>(window.count());
  const double t = static_cast<double>(now.seconds());
  const std::int64_t cutoff = now.seconds() - window.count();
  double units = sum_, moment = moment_;
  for (const Bucket& b : buckets_) {
    if (b.index * kB >= cutoff) break;
    units -= b.units;
    moment -= b.moment;
  }
  // sum of u x (1 - (t - s) / w) = units x (1 - t / w) + moment / w.
  double v = units * (1.0 - t / w) + moment / w;
  // Accrual not yet in buckets, at a constant rate over [from, t]: the integral of the
  // weight over that span.
  const std::int64_t from = std::max(at_.seconds(), cutoff);
  if (now.seconds() > from) {
    const double d = static_cast<double>(now.seconds() - from);
    v += rate_ * (d - d * d / (2.0 * w));
  }
  return v < 0 ? 0.0 : v;
}

void WindowedUsage::advance(Time now, Duration window) {
  if (now <= at_) return;
  if (rate_ != 0) {
    std::int64_t t = at_.seconds();
    const std::int64_t end = now.seconds();
    // Accrual older than the window would be dropped at once: skip straight past it.
    t = std::max(t, end - window.count() - kB);
    while (t < end) {
      const std::int64_t index = floor_div(t, kB);
      const std::int64_t next = std::min(end, (index + 1) * kB);
      const double units = rate_ * static_cast<double>(next - t);
      const double moment = units * (static_cast<double>(t) + static_cast<double>(next)) / 2.0;
      if (!buckets_.empty() && buckets_.back().index == index) {
        buckets_.back().units += units;
        buckets_.back().moment += moment;
      } else {
        buckets_.push_back({index, units, moment});
      }
      sum_ += units;
      moment_ += moment;
      t = next;
    }
  }
  at_ = now;
  const std::int64_t cutoff = now.seconds() - window.count();
  while (!buckets_.empty() && expired_fraction(buckets_.front().index, cutoff) == 1.0) {
    sum_ -= buckets_.front().units;
    moment_ -= buckets_.front().moment;
    buckets_.pop_front();
  }
  if (buckets_.empty()) sum_ = moment_ = 0;  // no drift from subtracting what was added
}

void WindowedUsage::add_rate(Time now, double delta, Duration window) {
  advance(now, window);
  rate_ += delta;
  if (rate_ < 1e-9 && rate_ > -1e-9) rate_ = 0;
}

}  // namespace fairway
