#include "client/api/begin_time.h"

#include <cstdlib>
#include <ctime>

#include <gtest/gtest.h>

namespace fairway::cli {
namespace {

// Local times are read in the process's zone: pin it to UTC for the test.
class BeginTime : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* tz = std::getenv("TZ")) saved_ = tz;
    ::setenv("TZ", "UTC", 1);
    ::tzset();
  }
  void TearDown() override {
    if (saved_) {
      ::setenv("TZ", saved_->c_str(), 1);
    } else {
      ::unsetenv("TZ");
    }
    ::tzset();
  }
  std::optional<std::string> saved_;
};

// 2026-11-25T15:00:00Z
constexpr std::int64_t kNow = 1'795'618'800;

std::int64_t at(std::string_view text) {
  auto t = parse_begin_time(text, Time::from_seconds(kNow));
  EXPECT_TRUE(t.has_value()) << text;
  return t ? t->seconds() - kNow : -1;
}

TEST_F(BeginTime, Forms) {
  EXPECT_EQ(at("now"), 0);
  EXPECT_EQ(at("now+90"), 90);
  EXPECT_EQ(at("now+10minutes"), 600);
  EXPECT_EQ(at("now+1hour"), 3600);
  EXPECT_EQ(at("now+2days"), 2 * 86400);
  EXPECT_EQ(at("now+1week"), 7 * 86400);
  EXPECT_EQ(at("16:00"), 3600);          // later today
  EXPECT_EQ(at("14:30"), 86400 - 1800);  // passed: tomorrow
  EXPECT_EQ(at("15:00:30"), 30);
  EXPECT_EQ(at("2026-11-26"), 9 * 3600);  // midnight of that day
  EXPECT_EQ(at("2026-11-25T18:00:00"), 3 * 3600);
  EXPECT_EQ(at("2026-11-25T18:00"), 3 * 3600);
  EXPECT_EQ(at("midnight"), 9 * 3600);
  EXPECT_EQ(at("noon"), 86400 - 3 * 3600);  // today's noon has passed
  EXPECT_EQ(at("teatime"), 3600);
  EXPECT_EQ(at("tomorrow"), 9 * 3600);
}

TEST_F(BeginTime, ErrorsNameTheValue) {
  const auto error = [](std::string_view t) {
    return parse_begin_time(t, Time::from_seconds(kNow)).error().message;
  };
  EXPECT_EQ(error("now+3fortnights"),
            "--begin=now+3fortnights: unknown unit \"fortnights\" (seconds, minutes, hours, days, weeks)");
  EXPECT_EQ(error("now-1"), "--begin=now-1: expected now+COUNT[units]");
  EXPECT_EQ(error("2026-13-01"), "--begin=2026-13-01: expected YYYY-MM-DD[THH:MM[:SS]]");
  EXPECT_EQ(error("25:00"),
            "--begin=25:00: not a time Fairway reads (now+1hour, HH:MM[:SS], "
            "YYYY-MM-DD[THH:MM[:SS]], midnight, noon, teatime, today, tomorrow)");
  EXPECT_EQ(error(""), "--begin=: empty");
}

// --begin=now+20 must not start a job 19.x s after its submission: the reference rounds up.
TEST(BeginReference, RoundsUpToTheNextWholeSecond) {
  EXPECT_EQ(begin_reference(1'800'000'000'000), Time::from_seconds(1'800'000'000));
  EXPECT_EQ(begin_reference(1'800'000'000'001), Time::from_seconds(1'800'000'001));
  EXPECT_EQ(begin_reference(1'800'000'000'999), Time::from_seconds(1'800'000'001));
}

}  // namespace
}  // namespace fairway::cli
