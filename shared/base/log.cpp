#include "shared/base/log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>

namespace fairway {
namespace {

std::atomic<LogLevel> g_min_level{LogLevel::kInfo};

std::string_view level_name(LogLevel l) {
  switch (l) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kError:
      return "error";
  }
  return "info";
}

void stderr_sink(LogLevel level, std::string_view, std::initializer_list<LogField>, const std::string& line) {
  // UTC with milliseconds: outside journald this is the only clock a reader has.
  const auto now = std::chrono::system_clock::now();
  const std::time_t secs = std::chrono::system_clock::to_time_t(now);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char stamp[64];
  std::snprintf(stamp, sizeof stamp, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  // One fwrite per line so that concurrent writers do not interleave within a line.
  std::string out = stamp + std::string(level_name(level)) + " " + line + "\n";
  std::fwrite(out.data(), 1, out.size(), stderr);
}

std::atomic<LogSink> g_sink{&stderr_sink};

bool needs_quotes(std::string_view v) {
  if (v.empty()) return true;
  for (char c : v) {
    if (c == ' ' || c == '"' || c == '=' || c == '\n' || c == '\t') return true;
  }
  return false;
}

}  // namespace

void set_log_sink(LogSink sink) {
  g_sink = sink != nullptr ? sink : &stderr_sink;
}
void set_log_level(LogLevel min_level) {
  g_min_level = min_level;
}

std::string render_log_line(std::string_view event, std::initializer_list<LogField> fields) {
  std::string line(event);
  for (const auto& [key, value] : fields) {
    line += ' ';
    line += key;
    line += '=';
    if (!needs_quotes(value)) {
      line += value;
      continue;
    }
    line += '"';
    for (char c : value) {
      if (c == '"' || c == '\\') line += '\\';
      line += c == '\n' ? ' ' : c;
    }
    line += '"';
  }
  return line;
}

void log_event(LogLevel level, std::string_view event, std::initializer_list<LogField> fields) {
  if (level < g_min_level.load()) return;
  g_sink.load()(level, event, fields, render_log_line(event, fields));
}

}  // namespace fairway
