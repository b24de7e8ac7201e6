#include "client/api/begin_time.h"

#include <charconv>
#include <ctime>
#include <string>

namespace fairway::cli {
namespace {

Error bad(std::string_view text, std::string_view why) {
  return Error{ErrorCode::kInvalidArgument, "--begin=" + std::string(text) + ": " + std::string(why)};
}

bool read_int(std::string_view s, int& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

std::tm local_tm(Time t) {
  const std::time_t tt = static_cast<std::time_t>(t.seconds());
  std::tm tm{};
  ::localtime_r(&tt, &tm);
  return tm;
}

Time from_local(std::tm tm) {
  tm.tm_isdst = -1;
  return Time::from_seconds(static_cast<std::int64_t>(std::mktime(&tm)));
}

// "HH:MM[:SS]" into tm's time fields.
bool read_clock(std::string_view s, std::tm& tm) {
  int h = 0, m = 0, sec = 0;
  const auto c1 = s.find(':');
  if (c1 == std::string_view::npos || !read_int(s.substr(0, c1), h)) return false;
  std::string_view rest = s.substr(c1 + 1);
  const auto c2 = rest.find(':');
  if (!read_int(rest.substr(0, c2), m)) return false;
  if (c2 != std::string_view::npos && !read_int(rest.substr(c2 + 1), sec)) return false;
  if (h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 59) return false;
  tm.tm_hour = h;
  tm.tm_min = m;
  tm.tm_sec = sec;
  return true;
}

Result<Time> relative(std::string_view text, std::string_view offset, Time now) {
  if (offset.empty()) return now;
  if (offset.front() != '+') return std::unexpected(bad(text, "expected now+COUNT[units]"));
  offset.remove_prefix(1);
  std::size_t digits = 0;
  while (digits < offset.size() && offset[digits] >= '0' && offset[digits] <= '9') ++digits;
  int count = 0;
  if (!read_int(offset.substr(0, digits), count) || count < 0) {
    return std::unexpected(bad(text, "expected a count after '+'"));
  }
  const std::string_view unit = offset.substr(digits);
  std::int64_t scale = 0;
  if (unit.empty() || unit == "s" || unit == "sec" || unit == "second" || unit == "seconds")
    scale = 1;
  else if (unit == "m" || unit == "min" || unit == "minute" || unit == "minutes")
    scale = 60;
  else if (unit == "h" || unit == "hour" || unit == "hours")
    scale = 3600;
  else if (unit == "d" || unit == "day" || unit == "days")
    scale = 86400;
  else if (unit == "w" || unit == "week" || unit == "weeks")
    scale = 7 * 86400;
  else {
    return std::unexpected(
        bad(text, "unknown unit \"" + std::string(unit) + "\" (seconds, minutes, hours, days, weeks)"));
  }
  return now + Duration::seconds(count * scale);
}

}  // namespace

Result<Time> parse_begin_time(std::string_view text, Time now) {
  if (text.empty()) return std::unexpected(bad(text, "empty"));
  if (text.starts_with("now")) return relative(text, text.substr(3), now);
  std::tm tm = local_tm(now);
  tm.tm_sec = 0;
  const auto named = [&](int hour, bool next_day_if_past) -> Time {
    tm.tm_hour = hour;
    tm.tm_min = 0;
    Time t = from_local(tm);
    if (next_day_if_past && t <= now) {
      ++tm.tm_mday;
      t = from_local(tm);
    }
    return t;
  };
  if (text == "midnight") {
    ++tm.tm_mday;
    return named(0, false);
  }
  if (text == "noon") return named(12, true);
  if (text == "teatime") return named(16, true);
  if (text == "today") return named(0, false);
  if (text == "tomorrow") {
    ++tm.tm_mday;
    return named(0, false);
  }
  if (text.size() >= 10 && text[4] == '-' && text[7] == '-') {
    int y = 0, mo = 0, d = 0;
    if (!read_int(text.substr(0, 4), y) || !read_int(text.substr(5, 2), mo) ||
        !read_int(text.substr(8, 2), d) || mo < 1 || mo > 12 || d < 1 || d > 31) {
      return std::unexpected(bad(text, "expected YYYY-MM-DD[THH:MM[:SS]]"));
    }
    std::tm day{};
    day.tm_year = y - 1900;
    day.tm_mon = mo - 1;
    day.tm_mday = d;
    if (text.size() > 10) {
      if (text[10] != 'T' || !read_clock(text.substr(11), day)) {
        return std::unexpected(bad(text, "expected YYYY-MM-DD[THH:MM[:SS]]"));
      }
    }
    return from_local(day);
  }
  if (read_clock(text, tm)) {
    Time t = from_local(tm);
    if (t <= now) {
      ++tm.tm_mday;
      t = from_local(tm);
    }
    return t;
  }
  return std::unexpected(bad(text,
                             "not a time Fairway reads (now+1hour, HH:MM[:SS], "
                             "YYYY-MM-DD[THH:MM[:SS]], midnight, noon, teatime, today, tomorrow)"));
}

Time begin_reference(std::int64_t unix_milliseconds) {
  return Time::from_seconds(unix_milliseconds / 1000 + (unix_milliseconds % 1000 > 0 ? 1 : 0));
}

}  // namespace fairway::cli
