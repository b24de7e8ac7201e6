// Usage that accrues at a rate while jobs run and decays with a half-life, evaluated
// exactly at any later instant: no periodic sweep, so the result is the same whatever
// the pass frequency. Pure arithmetic; time comes in as arguments.
#pragma once

#include <cmath>

#include "shared/base/time.h"

namespace fairway {

class DecayedUsage {
 public:
  // dU/dt = rate - lambda * U, with lambda = ln 2 / half_life; solved in closed form.
  double value_at(Time now, double lambda) const {
    if (now <= at_) return value_;
    const double dt = static_cast<double>((now - at_).count());
    const double decay = std::exp(-lambda * dt);
    const double accrued = lambda > 0 ? rate_ * (1.0 - decay) / lambda : rate_ * dt;
    return value_ * decay + accrued;
  }
  void advance(Time now, double lambda) {
    if (now <= at_) return;
    value_ = value_at(now, lambda);
    at_ = now;
  }
  // Changes the accrual rate from `now` on (a job starting: +units/s, ending: -units/s).
  void add_rate(Time now, double delta, double lambda) {
    advance(now, lambda);
    rate_ += delta;
    if (rate_ < 1e-9 && rate_ > -1e-9) rate_ = 0;
  }
  // A one-off charge (e.g. a reservation charged in full).
  void charge(Time now, double units, double lambda) {
    advance(now, lambda);
    value_ += units;
  }
  double rate() const { return rate_; }

 private:
  double value_ = 0;
  double rate_ = 0;
  Time at_;
};

}  // namespace fairway
