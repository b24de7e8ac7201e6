// Calendar periods in UTC (month, quarter, year) and the start of the one holding an
// instant: allocations renew on calendar boundaries, not after fixed spans. Pure; thread-safe.
#pragma once

#include <string_view>

#include "shared/base/time.h"

namespace fairway {

enum class CalendarPeriod { kNone, kMonth, kQuarter, kYear };

// The first second (UTC) of the period holding `t`; for kNone, the epoch (one period forever).
Time period_start(Time t, CalendarPeriod p);

std::string_view to_string(CalendarPeriod p);

}  // namespace fairway
