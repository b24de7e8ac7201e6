#include "coordinator/core/windowed_usage.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

Time T(std::int64_t s) { return Time::from_seconds(s); }
constexpr std::int64_t kHour = 3600;
const Duration kWindow = Duration::days(50);
const std::int64_t kW = kWindow.count();

TEST(WindowedUsage, CountsWhatRanWithinTheWindowAndNothingOlder) {
  WindowedUsage u;
  u.add_rate(T(0), 10, kWindow);
  u.add_rate(T(2 * kHour), -10, kWindow);
  EXPECT_DOUBLE_EQ(u.value_at(T(2 * kHour), kWindow), 72000);
  EXPECT_DOUBLE_EQ(u.value_at(T(kW), kWindow), 72000) << "no decay inside the window";
  EXPECT_DOUBLE_EQ(u.value_at(T(kW + kHour), kWindow), 36000) << "the first hour left";
  EXPECT_DOUBLE_EQ(u.value_at(T(kW + 2 * kHour), kWindow), 0);
}

TEST(WindowedUsage, RunningUsageIsClippedToTheWindow) {
  WindowedUsage u;
  u.add_rate(T(0), 2, kWindow);
  EXPECT_DOUBLE_EQ(u.value_at(T(kHour), kWindow), 2.0 * kHour);
  EXPECT_DOUBLE_EQ(u.value_at(T(kW + 10 * kHour), kWindow), 2.0 * static_cast<double>(kW));
  // Materialising the accrual into buckets gives the same value and keeps memory bounded.
  u.add_rate(T(kW + 10 * kHour), 1, kWindow);
  EXPECT_DOUBLE_EQ(u.value_at(T(kW + 10 * kHour), kWindow), 2.0 * static_cast<double>(kW));
  EXPECT_LE(u.bucket_count(), static_cast<std::size_t>(kW / kHour + 2));
  EXPECT_DOUBLE_EQ(u.value_at(T(kW + 11 * kHour), kWindow), 2.0 * static_cast<double>(kW) + kHour);
}

// Only the bucket at the window's trailing edge is pro-rated: off by at most its usage.
TEST(WindowedUsage, ErrorIsAtMostOneBucket) {
  WindowedUsage u;
  u.add_rate(T(1800), 1, kWindow);
  u.add_rate(T(1800 + kHour), -1, kWindow);
  EXPECT_DOUBLE_EQ(u.value_at(T(1800 + kHour), kWindow), kHour);
  // Half the job has left the window; the true usage left is 1800.
  const double v = u.value_at(T(1800 + kW + 1800), kWindow);
  EXPECT_NEAR(v, 1800.0, kHour);
  EXPECT_DOUBLE_EQ(u.value_at(T(1800 + kHour + kW + kHour), kWindow), 0.0);
}

TEST(WindowedUsage, QueriesBeforeTheLastChangeSeeTheLastChange) {
  WindowedUsage u;
  u.add_rate(T(100), 1, kWindow);
  u.add_rate(T(200), -1, kWindow);
  EXPECT_DOUBLE_EQ(u.value_at(T(150), kWindow), 100.0);
}

}  // namespace
}  // namespace fairway
