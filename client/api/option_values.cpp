#include "client/api/option_values.h"

#include <cctype>
#include <charconv>
#include <csignal>
#include <utility>

#include "shared/model/job_spec.h"

namespace fairway::cli {
namespace {

// The signals a job may ask for by name, as kill -l spells them (with or without SIG).
constexpr std::pair<std::string_view, std::int32_t> kSignalNames[] = {
    {"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"KILL", SIGKILL},  {"USR1", SIGUSR1},
    {"USR2", SIGUSR2}, {"ALRM", SIGALRM}, {"TERM", SIGTERM}, {"CONT", SIGCONT},  {"STOP", SIGSTOP},
    {"TSTP", SIGTSTP}, {"URG", SIGURG},   {"XCPU", SIGXCPU}, {"WINCH", SIGWINCH}};

}  // namespace

Result<std::int64_t> parse_memory_mb(std::string_view v) {
  std::size_t digits = 0;
  while (digits < v.size() && v[digits] >= '0' && v[digits] <= '9') ++digits;
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + digits, n);
  if (digits == 0 || ec != std::errc() || end != v.data() + digits) {
    return invalid_argument("expected a size such as 500M, 4G or 4000 (MiB)");
  }
  std::string_view unit = v.substr(digits);
  if (unit.size() == 2 && (unit[1] == 'B' || unit[1] == 'b')) unit = unit.substr(0, 1);
  constexpr std::int64_t kMaxMb = std::int64_t{1} << 40;
  std::int64_t mb = 0;
  if (unit.empty() || unit == "M" || unit == "m") {
    mb = n;
  } else if (unit == "K" || unit == "k") {
    mb = (n + 1023) / 1024;
  } else if (unit == "G" || unit == "g") {
    mb = n > kMaxMb / 1024 ? kMaxMb + 1 : n * 1024;
  } else if (unit == "T" || unit == "t") {
    mb = n > kMaxMb / (1024 * 1024) ? kMaxMb + 1 : n * 1024 * 1024;
  } else {
    return invalid_argument("unknown unit \"" + std::string(unit) + "\" (K, M, G or T)");
  }
  if (mb > kMaxMb) return invalid_argument("too large");
  return mb;
}

Result<std::int32_t> parse_signal_name(std::string_view sig) {
  if (sig.starts_with("SIG")) sig.remove_prefix(3);
  std::int32_t number = 0;
  if (const auto [end, ec] = std::from_chars(sig.data(), sig.data() + sig.size(), number);
      ec == std::errc() && end == sig.data() + sig.size()) {
    if (number < 1 || number > 64) return invalid_argument("signal numbers are 1 to 64");
    return number;
  }
  for (const auto& [name, n] : kSignalNames) {
    if (name == sig) return n;
  }
  return invalid_argument("unknown signal \"" + std::string(sig) + "\"");
}

Result<WarningSignal> parse_signal_option(std::string_view v) {
  const auto bad = [&](std::string_view why) {
    return invalid_argument("--signal=" + std::string(v) + ": " + std::string(why));
  };
  WarningSignal w;
  std::string_view rest = v;
  if (rest.size() > 2 && rest[1] == ':') {
    if (rest[0] == 'B') {
      w.batch_only = true;
    } else if (rest[0] != 'R') {
      return bad("the prefix is B: (batch script only) or R:");
    }
    rest.remove_prefix(2);
  }
  const auto at = rest.find('@');
  auto number = parse_signal_name(rest.substr(0, at));
  if (!number) return bad(number.error().message);
  w.signal = *number;
  if (at != std::string_view::npos) {
    const std::string_view secs = rest.substr(at + 1);
    std::int32_t s = -1;
    const auto [end, ec] = std::from_chars(secs.data(), secs.data() + secs.size(), s);
    if (ec != std::errc() || end != secs.data() + secs.size() || s < 0 || s > 65535) {
      return bad("the time after @ is 0 to 65535 seconds");
    }
    w.seconds_before = s;
  }
  return w;
}

Result<std::uint8_t> parse_mail_types(std::string_view list, std::vector<std::string>& warnings) {
  std::uint8_t events = 0;
  std::string_view rest = list;
  while (true) {
    const auto comma = rest.find(',');
    // Slurm compares the event names without regard to case (--mail-type=begin,end).
    std::string upper(rest.substr(0, comma));
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const std::string_view word = upper;
    if (word == "NONE") {
      events = 0;
    } else if (word == "BEGIN") {
      events |= kMailBegin;
    } else if (word == "END") {
      events |= kMailEnd;
    } else if (word == "FAIL") {
      events |= kMailFail;
    } else if (word == "REQUEUE") {
      events |= kMailRequeue;
    } else if (word == "ALL") {
      // Slurm's ALL: the time-limit mails are asked for by name.
      events |= kMailBegin | kMailEnd | kMailFail | kMailRequeue;
    } else if (word == "TIME_LIMIT") {
      events |= kMailTimeLimit;
    } else if (word == "TIME_LIMIT_90") {
      events |= kMailTimeLimit90;
    } else if (word == "TIME_LIMIT_80") {
      events |= kMailTimeLimit80;
    } else if (word == "TIME_LIMIT_50") {
      events |= kMailTimeLimit50;
    } else if (word == "INVALID_DEPEND" || word == "STAGE_OUT" || word == "ARRAY_TASKS") {
      warnings.push_back("--mail-type=" + std::string(word) + " ignored: no mail is sent for it yet");
    } else {
      return invalid_argument("--mail-type=" + std::string(list) + ": unknown event \"" + std::string(word) +
                              "\" (NONE, BEGIN, END, FAIL, REQUEUE, ALL, ...)");
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return events;
}

}  // namespace fairway::cli
