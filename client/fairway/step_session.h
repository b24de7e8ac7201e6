// The client's side of a running job step (fairway run): it accepts each node's relay by
// the step's key, writes the tasks' output here (labelled with -l), forwards stdin to task
// 0, Ctrl-C and SIGTERM/HUP/QUIT/USR1/USR2 to every task and the window size with --pty,
// and ends with the worst task's exit. Uses signal handlers: one step per process at a time.
#pragma once

#include <signal.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "client/fairway/commands.h"
#include "client/fairway/run_command.h"
#include "shared/wire/messages.h"

namespace fairway::cli {

// While it lives, SIGINT is counted for the step instead of ending the process (from the
// request on: a Ctrl-C that comes before the reply still reaches the tasks).
class StepInterrupts {
 public:
  StepInterrupts();
  ~StepInterrupts();
  StepInterrupts(const StepInterrupts&) = delete;
  StepInterrupts& operator=(const StepInterrupts&) = delete;

 private:
  struct sigaction saved_ {};
};

// How a step ended: the worst task's exit, for this process and for the record.
struct StepOutcome {
  int exit = 0;                // the process's: 128+N for signal N, 1 when a node failed
  std::int32_t exit_code = 0;  // the record's (sacct's ExitCode code:signal)
  std::int32_t signal = 0;
  // What the relays measured (none from older relays): the largest task's resident set
  // and every task's CPU time.
  std::optional<std::int64_t> max_rss_kb;
  std::optional<std::int64_t> cpu_us;
};

// From each task's end by rank (>= 0: exit code, < 0: -signal) of `tasks` tasks: a task
// never heard of, or a node that failed, counts as exit code 1.
StepOutcome step_outcome(const std::map<std::int32_t, std::int64_t>& exits, std::int32_t tasks,
                         bool node_failed);

// Serves `step` on `listen_fd` until every node's relay is done (or did not call in within
// settings.start_timeout_ms). With `pty`, this terminal is raw meanwhile.
StepOutcome serve_step(const wire::StepReply& step, const std::string& key, int listen_fd, bool label,
                       bool pty, const Output& io, const StepSettings& settings);

}  // namespace fairway::cli
