#include "agent/os/proc_stat.h"

#include "agent/os/small_file.h"
#include "shared/base/try.h"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <string>
#include <vector>

namespace fairway::agent {

Result<ProcStat> parse_proc_stat(std::string_view text) {
  const auto close = text.rfind(')');
  if (close == std::string_view::npos) {
    return invalid_argument("proc stat: no ')' closing the command name in '" +
                            std::string(text.substr(0, 64)) + "'");
  }
  // Fields from 3 on, split on spaces; fields[0] is field 3 (state).
  std::vector<std::string_view> fields;
  std::string_view rest = text.substr(close + 1);
  std::size_t i = 0;
  while (i < rest.size()) {
    while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\n')) ++i;
    std::size_t j = i;
    while (j < rest.size() && rest[j] != ' ' && rest[j] != '\n') ++j;
    if (j > i) fields.push_back(rest.substr(i, j - i));
    i = j;
  }
  if (fields.size() < 20) {
    return invalid_argument("proc stat: only " + std::to_string(fields.size() + 2) +
                            " fields, need at least 22");
  }
  ProcStat out;
  out.state = fields[0].empty() ? '?' : fields[0][0];
  auto number = [](std::string_view f, auto& value, const char* name) -> Status {
    const auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), value);
    if (ec != std::errc() || p != f.data() + f.size()) {
      return invalid_argument(std::string("proc stat: field ") + name + " '" + std::string(f) +
                              "' is not a number");
    }
    return ok_status();
  };
  FAIRWAY_TRY(number(fields[2], out.pgid, "pgrp"));
  if (auto s = number(fields[19], out.start_ticks, "starttime"); !s) {
    return std::unexpected(s.error());
  }
  return out;
}

Result<ProcStat> read_proc_stat(pid_t pid) {
  const std::string path = "/proc/" + std::to_string(pid) + "/stat";
  FAIRWAY_TRY_ASSIGN(text, read_small_file(path, 4096));
  auto parsed = parse_proc_stat(text);
  if (!parsed) return std::unexpected(parsed.error().with_context(path));
  return parsed;
}

bool process_is_alive(pid_t pid, std::uint64_t start_ticks) {
  if (pid <= 0) return false;
  const auto stat = read_proc_stat(pid);
  // start_ticks 0: not known (a checkpoint its keeper wrote); the pid alone must do.
  return stat && !stat->is_dead() && (start_ticks == 0 || stat->start_ticks == start_ticks);
}

}  // namespace fairway::agent
