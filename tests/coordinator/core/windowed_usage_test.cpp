#include "coordinator/core/windowed_usage.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

Time T(std::int64_t s) {
  return Time::from_seconds(s);
}
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

// Linear fading: weight 1 - age / window, exact for usage inside the window.
TEST(WindowedUsage, LinearWeightFadesToNothingOverTheWindow) {
  WindowedUsage u;
  u.add_rate(T(0), 10, kWindow);
  u.add_rate(T(2 * kHour), -10, kWindow);
  // 72,000 units accrued over [0, 2 h]; their mean age at 2 h is 1 h.
  const double at_end = 72000.0 * (1.0 - static_cast<double>(kHour) / static_cast<double>(kW));
  EXPECT_NEAR(u.linear_value_at(T(2 * kHour), kWindow), at_end, 1e-6);
  // Half a window later (mean age W/2 + 1 h) it counts a little under half.
  const double half = 72000.0 * (0.5 - static_cast<double>(kHour) / static_cast<double>(kW));
  EXPECT_NEAR(u.linear_value_at(T(kW / 2 + 2 * kHour), kWindow), half, 1e-6);
  EXPECT_DOUBLE_EQ(u.linear_value_at(T(kW + 2 * kHour), kWindow), 0.0);
}

TEST(WindowedUsage, LinearWeightOfRunningUsageIsItsIntegral) {
  WindowedUsage u;
  u.add_rate(T(0), 1, kWindow);
  // Running since 0 at rate 1: the integral of 1 - (t - s) / W over [0, t] = t - t^2 / 2W.
  const double t = static_cast<double>(10 * kHour);
  const double w = static_cast<double>(kW);
  EXPECT_NEAR(u.linear_value_at(T(10 * kHour), kWindow), t - t * t / (2 * w), 1e-6);
  u.add_rate(T(10 * kHour), 0.5, kWindow);  // into buckets; same value
  EXPECT_NEAR(u.linear_value_at(T(10 * kHour), kWindow), t - t * t / (2 * w), 1e-6);
  // After a whole window at rate 1 the weighted usage settles at W / 2.
  u.add_rate(T(kW + 10 * kHour), -0.5, kWindow);
  EXPECT_NEAR(u.linear_value_at(T(3 * kW), kWindow), w / 2, kHour);
}

TEST(WindowedUsage, QueriesBeforeTheLastChangeSeeTheLastChange) {
  WindowedUsage u;
  u.add_rate(T(100), 1, kWindow);
  u.add_rate(T(200), -1, kWindow);
  EXPECT_DOUBLE_EQ(u.value_at(T(150), kWindow), 100.0);
}

}  // namespace
}  // namespace fairway
