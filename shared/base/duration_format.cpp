#include "shared/base/duration_format.h"

#include <charconv>
#include <cstdio>
#include <vector>

namespace fairway {
namespace {

bool parse_uint(std::string_view s, std::int64_t& out) {
  if (s.empty() || s.size() > 12) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && out >= 0;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

std::unexpected<Error> bad_walltime(std::string_view text) {
  return invalid_argument("invalid time '" + std::string(text) +
                          "' (expected M, M:S, H:M:S, D-H, D-H:M or D-H:M:S)");
}

}  // namespace

Result<Duration> parse_walltime(std::string_view text) {
  if (text == "UNLIMITED" || text == "unlimited" || text == "infinite" || text == "INFINITE") {
    return Duration::infinite();
  }
  std::int64_t days = 0;
  std::string_view rest = text;
  bool has_days = false;
  if (auto dash = text.find('-'); dash != std::string_view::npos) {
    if (!parse_uint(text.substr(0, dash), days)) return bad_walltime(text);
    rest = text.substr(dash + 1);
    has_days = true;
  }
  auto parts = split(rest, ':');
  if (parts.size() > 3) return bad_walltime(text);
  std::int64_t v[3] = {0, 0, 0};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (!parse_uint(parts[i], v[i])) return bad_walltime(text);
  }
  std::int64_t seconds = 0;
  if (has_days) {
    // D-H, D-H:M, D-H:M:S
    seconds = days * 86400 + v[0] * 3600 + v[1] * 60 + v[2];
  } else if (parts.size() == 1) {
    seconds = v[0] * 60;
  } else if (parts.size() == 2) {
    seconds = v[0] * 60 + v[1];
  } else {
    seconds = v[0] * 3600 + v[1] * 60 + v[2];
  }
  return Duration::seconds(seconds);
}

Result<Duration> parse_span(std::string_view text) {
  if (text.empty()) return invalid_argument("empty time span");
  // Words first: "unlimited" must not be read as a number of days.
  if (text.find_first_not_of("0123456789") != std::string_view::npos &&
      (text.front() < '0' || text.front() > '9')) {
    return parse_walltime(text);
  }
  char unit = text.back();
  std::int64_t mult = 0;
  switch (unit) {
    case 's':
      mult = 1;
      break;
    case 'm':
      mult = 60;
      break;
    case 'h':
      mult = 3600;
      break;
    case 'd':
      mult = 86400;
      break;
    case 'w':
      mult = 7 * 86400;
      break;
    default:
      break;
  }
  if (mult != 0) {
    std::int64_t n = 0;
    if (!parse_uint(text.substr(0, text.size() - 1), n)) {
      return invalid_argument("invalid time span '" + std::string(text) +
                              "' (expected a whole number before the unit s/m/h/d/w)");
    }
    return Duration::seconds(n * mult);
  }
  return parse_walltime(text);
}

std::string format_walltime(Duration d) {
  if (d.is_infinite()) return "UNLIMITED";
  std::int64_t s = d.count();
  const char* sign = "";
  if (s < 0) {
    sign = "-";
    s = -s;
  }
  std::int64_t days = s / 86400;
  s %= 86400;
  char buf[64];
  if (days > 0) {
    std::snprintf(buf, sizeof buf, "%s%lld-%02lld:%02lld:%02lld", sign, static_cast<long long>(days),
                  static_cast<long long>(s / 3600), static_cast<long long>(s / 60 % 60),
                  static_cast<long long>(s % 60));
  } else {
    std::snprintf(buf, sizeof buf, "%s%02lld:%02lld:%02lld", sign, static_cast<long long>(s / 3600),
                  static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
  }
  return buf;
}

std::string describe_timeout(std::chrono::milliseconds timeout) {
  const auto ms = timeout.count();
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
  return std::to_string(ms) + " ms";
}

}  // namespace fairway
