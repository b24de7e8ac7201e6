#include "shared/base/duration_format.h"

#include <gtest/gtest.h>

#include <string>

namespace fairway {
namespace {

std::int64_t walltime_s(std::string_view text) {
  auto d = parse_walltime(text);
  EXPECT_TRUE(d.has_value()) << "parse_walltime('" << text << "'): " << d.error().message;
  return d ? d->count() : -1;
}

std::int64_t span_s(std::string_view text) {
  auto d = parse_span(text);
  EXPECT_TRUE(d.has_value()) << "parse_span('" << text << "'): " << d.error().message;
  return d ? d->count() : -1;
}

TEST(DurationFormat, WalltimeBareNumberIsMinutes) {
  EXPECT_EQ(walltime_s("90"), 90 * 60);
  EXPECT_EQ(walltime_s("0"), 0);
}

TEST(DurationFormat, WalltimeColonForms) {
  EXPECT_EQ(walltime_s("1:30"), 90);       // M:S
  EXPECT_EQ(walltime_s("1:30:00"), 5400);  // H:M:S
  EXPECT_EQ(walltime_s("10:00:05"), 36005);
  EXPECT_EQ(walltime_s("00:00:01"), 1);
}

TEST(DurationFormat, WalltimeDayForms) {
  EXPECT_EQ(walltime_s("2-12"), 2 * 86400 + 12 * 3600);            // D-H
  EXPECT_EQ(walltime_s("2-12:30"), 2 * 86400 + 12 * 3600 + 1800);  // D-H:M
  EXPECT_EQ(walltime_s("7-00:00:00"), 7 * 86400);                  // D-H:M:S
  EXPECT_EQ(walltime_s("1-02:03:04"), 86400 + 2 * 3600 + 3 * 60 + 4);
}

TEST(DurationFormat, WalltimeUnlimited) {
  for (const char* text : {"UNLIMITED", "unlimited", "infinite", "INFINITE"}) {
    auto d = parse_walltime(text);
    ASSERT_TRUE(d.has_value()) << text;
    EXPECT_TRUE(d->is_infinite()) << text;
  }
}

TEST(DurationFormat, WalltimeRejectsBadInput) {
  for (const char* text :
       {"", "abc", "1:2:3:4", "-5", "1-", "1-2:3:4:5", "1.5", "1:-2", "1-2-3", "5m", " 5", "1::2"}) {
    auto d = parse_walltime(text);
    ASSERT_FALSE(d.has_value()) << "'" << text << "' parsed as " << d->count();
    EXPECT_EQ(d.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(d.error().message.find("'" + std::string(text) + "'"), std::string::npos) << d.error().message;
  }
}

TEST(DurationFormat, SpanUnits) {
  EXPECT_EQ(span_s("30s"), 30);
  EXPECT_EQ(span_s("5m"), 300);
  EXPECT_EQ(span_s("2h"), 7200);
  EXPECT_EQ(span_s("14d"), 14 * 86400);
  EXPECT_EQ(span_s("8w"), 8 * 7 * 86400);
  EXPECT_EQ(span_s("0s"), 0);
}

TEST(DurationFormat, SpanFallsBackToWalltime) {
  EXPECT_EQ(span_s("1:30:00"), 5400);
  EXPECT_EQ(span_s("7-00:00:00"), 7 * 86400);
  EXPECT_EQ(span_s("90"), 90 * 60);  // a bare number is minutes, as in walltimes
  auto d = parse_span("UNLIMITED");
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->is_infinite());
}

TEST(DurationFormat, SpanRejectsBadInput) {
  for (const char* text : {"", "d", "h", "-5s", "1.5h", "10x", "abc", "2 d", "1:2:3:4"}) {
    auto d = parse_span(text);
    ASSERT_FALSE(d.has_value()) << "'" << text << "' parsed as " << d->count();
    EXPECT_EQ(d.error().code, ErrorCode::kInvalidArgument);
  }
  auto d = parse_span("1.5h");
  ASSERT_FALSE(d.has_value());
  EXPECT_NE(d.error().message.find("'1.5h'"), std::string::npos) << d.error().message;
}

TEST(DurationFormat, FormatWalltime) {
  EXPECT_EQ(format_walltime(Duration::seconds(0)), "00:00:00");
  EXPECT_EQ(format_walltime(Duration::seconds(3661)), "01:01:01");
  EXPECT_EQ(format_walltime(Duration::hours(23) + Duration::seconds(59 * 60 + 59)), "23:59:59");
  EXPECT_EQ(format_walltime(Duration::days(1)), "1-00:00:00");
  EXPECT_EQ(format_walltime(Duration::days(2) + Duration::seconds(3 * 3600 + 4 * 60 + 5)), "2-03:04:05");
  EXPECT_EQ(format_walltime(Duration::days(365)), "365-00:00:00");
  EXPECT_EQ(format_walltime(Duration::seconds(-90)), "-00:01:30");
  EXPECT_EQ(format_walltime(Duration::infinite()), "UNLIMITED");
}

TEST(DurationFormat, FormatThenParseRoundTrips) {
  for (std::int64_t s : {0L, 1L, 59L, 3600L, 86399L, 86400L, 90061L, 7L * 86400 + 5L}) {
    auto d = parse_walltime(format_walltime(Duration::seconds(s)));
    ASSERT_TRUE(d.has_value()) << s;
    EXPECT_EQ(d->count(), s);
  }
  auto inf = parse_walltime(format_walltime(Duration::infinite()));
  ASSERT_TRUE(inf.has_value());
  EXPECT_TRUE(inf->is_infinite());
}

}  // namespace
}  // namespace fairway

namespace fairway {
namespace {

TEST(DurationFormat, SpanAcceptsUnlimitedWords) {
  for (const char* word : {"unlimited", "UNLIMITED", "infinite", "INFINITE"}) {
    auto d = parse_span(word);
    ASSERT_TRUE(d) << word;
    EXPECT_TRUE(d->is_infinite()) << word;
  }
  EXPECT_FALSE(parse_span("d"));
  EXPECT_FALSE(parse_span("days"));
}

}  // namespace
}  // namespace fairway
