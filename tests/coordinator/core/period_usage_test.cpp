#include "coordinator/core/period_usage.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

constexpr std::int64_t kJan1 = 1767225600;  // 2026-01-01T00:00:00Z
Time T(std::int64_t s) {
  return Time::from_seconds(s);
}

TEST(PeriodUsage, WithoutAPeriodItNeverForgets) {
  PeriodUsage u;
  u.add_rate(T(kJan1 - 3600), 2, CalendarPeriod::kNone);
  EXPECT_DOUBLE_EQ(u.value_at(T(kJan1 + 3600), CalendarPeriod::kNone), 2.0 * 7200);
}

TEST(PeriodUsage, ANewYearStartsFromZeroEvenMidJob) {
  PeriodUsage u;
  u.add_rate(T(kJan1 - 3600), 2, CalendarPeriod::kYear);  // a job running across New Year
  EXPECT_DOUBLE_EQ(u.value_at(T(kJan1 - 1), CalendarPeriod::kYear), 2.0 * 3599);
  EXPECT_DOUBLE_EQ(u.value_at(T(kJan1 + 600), CalendarPeriod::kYear), 2.0 * 600);
  u.add_rate(T(kJan1 + 1800), -2, CalendarPeriod::kYear);  // it ends
  EXPECT_DOUBLE_EQ(u.value_at(T(kJan1 + 86400), CalendarPeriod::kYear), 2.0 * 1800);
}

TEST(PeriodUsage, UsageEndedLastPeriodIsGone) {
  PeriodUsage u;
  u.add_rate(T(kJan1 - 7200), 1, CalendarPeriod::kMonth);
  u.add_rate(T(kJan1 - 3600), -1, CalendarPeriod::kMonth);
  EXPECT_DOUBLE_EQ(u.value_at(T(kJan1 - 1), CalendarPeriod::kMonth), 3600);
  EXPECT_DOUBLE_EQ(u.value_at(T(kJan1), CalendarPeriod::kMonth), 0);
}

}  // namespace
}  // namespace fairway
