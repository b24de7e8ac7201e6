// Reads what the agent needs from /proc/<pid>/stat: the process state and its start time
// (field 22, clock ticks since boot), which tells a live job from a reused pid. Thread-safe.
#pragma once

#include <sys/types.h>
#include <cstdint>
#include <string_view>

#include "shared/base/result.h"

namespace fairway::agent {

struct ProcStat {
  char state = '?';               // R, S, D, Z, T, ... (field 3)
  std::int64_t pgid = 0;          // field 5
  std::uint64_t start_ticks = 0;  // field 22
  bool is_dead() const { return state == 'Z' || state == 'X' || state == 'x'; }
};

// Parses the text of a /proc/<pid>/stat file; the command name may hold spaces and ')'.
Result<ProcStat> parse_proc_stat(std::string_view text);

// kNotFound when the process does not exist (any more).
Result<ProcStat> read_proc_stat(pid_t pid);

// True when `pid` exists, is not a zombie, and started at `start_ticks`.
bool process_is_alive(pid_t pid, std::uint64_t start_ticks);

}  // namespace fairway::agent
