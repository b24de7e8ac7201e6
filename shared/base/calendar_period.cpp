#include "shared/base/calendar_period.h"

#include <chrono>

namespace fairway {

Time period_start(Time t, CalendarPeriod p) {
  using namespace std::chrono;
  if (p == CalendarPeriod::kNone) return Time();
  const sys_days day = floor<days>(sys_seconds(seconds(t.seconds())));
  const year_month_day ymd(day);
  unsigned month = static_cast<unsigned>(ymd.month());
  if (p == CalendarPeriod::kQuarter) month = (month - 1) / 3 * 3 + 1;
  if (p == CalendarPeriod::kYear) month = 1;
  const sys_days first = ymd.year() / std::chrono::month(month) / 1;
  return Time::from_seconds(duration_cast<seconds>(first.time_since_epoch()).count());
}

std::string_view to_string(CalendarPeriod p) {
  switch (p) {
    case CalendarPeriod::kNone:
      return "none";
    case CalendarPeriod::kMonth:
      return "month";
    case CalendarPeriod::kQuarter:
      return "quarter";
    case CalendarPeriod::kYear:
      return "year";
  }
  return "none";
}

}  // namespace fairway
