// Integer time for the whole system: Time is an instant, Duration a span, both in whole
// seconds. No floating time anywhere, so schedules replay bit-for-bit on every machine.
#pragma once

#include <compare>
#include <cstdint>
#include <limits>

namespace fairway {

class Duration {
 public:
  constexpr Duration() = default;
  static constexpr Duration seconds(std::int64_t s) { return Duration(s); }
  static constexpr Duration minutes(std::int64_t m) { return Duration(m * 60); }
  static constexpr Duration hours(std::int64_t h) { return Duration(h * 3600); }
  static constexpr Duration days(std::int64_t d) { return Duration(d * 86400); }
  static constexpr Duration infinite() { return Duration(std::numeric_limits<std::int64_t>::max() / 4); }

  constexpr std::int64_t count() const { return s_; }
  constexpr bool is_infinite() const { return s_ >= infinite().s_; }

  constexpr auto operator<=>(const Duration&) const = default;
  constexpr Duration operator+(Duration o) const { return Duration(s_ + o.s_); }
  constexpr Duration operator-(Duration o) const { return Duration(s_ - o.s_); }
  constexpr Duration operator*(std::int64_t k) const { return Duration(s_ * k); }
  constexpr Duration& operator+=(Duration o) {
    s_ += o.s_;
    return *this;
  }
  constexpr Duration& operator-=(Duration o) {
    s_ -= o.s_;
    return *this;
  }

 private:
  constexpr explicit Duration(std::int64_t s) : s_(s) {}
  std::int64_t s_ = 0;
};

class Time {
 public:
  constexpr Time() = default;
  static constexpr Time from_seconds(std::int64_t s) { return Time(s); }
  // Far enough in the future to mean "never" while still allowing additions.
  static constexpr Time never() { return Time(std::numeric_limits<std::int64_t>::max() / 2); }

  constexpr std::int64_t seconds() const { return s_; }
  constexpr bool is_never() const { return s_ >= never().s_; }

  constexpr auto operator<=>(const Time&) const = default;
  constexpr Time operator+(Duration d) const {
    if (is_never() || d.is_infinite()) return never();
    return Time(s_ + d.count());
  }
  constexpr Time operator-(Duration d) const { return Time(s_ - d.count()); }
  constexpr Duration operator-(Time o) const { return Duration::seconds(s_ - o.s_); }
  constexpr Time& operator+=(Duration d) {
    *this = *this + d;
    return *this;
  }

 private:
  constexpr explicit Time(std::int64_t s) : s_(s) {}
  std::int64_t s_ = 0;
};

constexpr Time max(Time a, Time b) {
  return a < b ? b : a;
}
constexpr Time min(Time a, Time b) {
  return a < b ? a : b;
}

}  // namespace fairway
