// Usage accrued since the current calendar period began (an allocation year or month),
// back to zero at each boundary: what allocation overuse compares with an allocation
// that renews. Evaluated exactly at any instant; pure, time comes in as arguments.
#pragma once

#include "shared/base/calendar_period.h"

namespace fairway {

class PeriodUsage {
 public:
  double value_at(Time now, CalendarPeriod period) const {
    if (now <= at_) return value_;
    const Time start = period_start(now, period);
    if (start > at_) return rate_ * static_cast<double>((now - start).count());  // renewed since
    return value_ + rate_ * static_cast<double>((now - at_).count());
  }
  // Changes the accrual rate from `now` on (a job starting: +units/s, ending: -units/s).
  void add_rate(Time now, double delta, CalendarPeriod period) {
    if (now > at_) {
      value_ = value_at(now, period);
      at_ = now;
    }
    rate_ += delta;
    if (rate_ < 1e-9 && rate_ > -1e-9) rate_ = 0;
  }

 private:
  double value_ = 0;
  double rate_ = 0;
  Time at_;
};

}  // namespace fairway
