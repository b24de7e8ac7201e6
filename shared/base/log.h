// Structured event logs: one line per event, `event key=value ...`, with job and node ids
// as fields. Stderr by default; a daemon under systemd installs the journald sink.
// Thread-safe to call; set_log_sink() is meant for start-up, before threads exist.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace fairway {

enum class LogLevel { kDebug, kInfo, kWarning, kError };

using LogField = std::pair<std::string_view, std::string>;

// Receives each event with its fields already rendered into `line`.
using LogSink = void (*)(LogLevel level, std::string_view event, std::initializer_list<LogField> fields,
                         const std::string& line);

void set_log_sink(LogSink sink);
void set_log_level(LogLevel min_level);
void log_event(LogLevel level, std::string_view event, std::initializer_list<LogField> fields = {});

// `key=value`, quoting values with spaces, quotes or '=' so that a line stays parseable.
std::string render_log_line(std::string_view event, std::initializer_list<LogField> fields);

}  // namespace fairway
