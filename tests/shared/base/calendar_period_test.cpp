#include "shared/base/calendar_period.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

// 2026-11-23T10:00:00Z and the boundaries around it, as epoch seconds.
constexpr std::int64_t kNov23 = 1795428000;
constexpr std::int64_t kNov1 = 1793491200;
constexpr std::int64_t kOct1 = 1790812800;
constexpr std::int64_t kJan1 = 1767225600;

TEST(CalendarPeriod, StartsOfMonthQuarterAndYear) {
  const Time t = Time::from_seconds(kNov23);
  EXPECT_EQ(period_start(t, CalendarPeriod::kMonth).seconds(), kNov1);
  EXPECT_EQ(period_start(t, CalendarPeriod::kQuarter).seconds(), kOct1);
  EXPECT_EQ(period_start(t, CalendarPeriod::kYear).seconds(), kJan1);
  EXPECT_EQ(period_start(t, CalendarPeriod::kNone).seconds(), 0);
}

TEST(CalendarPeriod, ABoundaryIsItsOwnStart) {
  EXPECT_EQ(period_start(Time::from_seconds(kJan1), CalendarPeriod::kYear).seconds(), kJan1);
  EXPECT_EQ(period_start(Time::from_seconds(kJan1 - 1), CalendarPeriod::kYear).seconds(),
            kJan1 - 365 * 86400);
  EXPECT_EQ(period_start(Time::from_seconds(kNov1 - 1), CalendarPeriod::kMonth).seconds(), kOct1);
}

}  // namespace
}  // namespace fairway
