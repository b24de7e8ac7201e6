// Collects the agent's ended children without blocking, and signals a job's process
// group. Stateless; call from the agent's loop (waitpid(-1) takes any child of the process).
#pragma once

#include <sys/types.h>
#include <vector>

#include "agent/core/process_exit.h"
#include "shared/base/result.h"

namespace fairway::agent {

struct ReapedChild {
  pid_t pid = 0;
  ProcessExit exit;
  bool operator==(const ReapedChild&) const = default;
};

// Decodes a waitpid() status into an exit code or a killing signal.
ProcessExit process_exit_from_wait_status(int wait_status);

class ChildReaper {
 public:
  // Every child that has ended since the last call (waitpid(-1, WNOHANG) until none is
  // left); empty when no child has ended or there are no children at all.
  Result<std::vector<ReapedChild>> reap() const;

  // kill(-pgid, signal): the whole job, including what it spawned. A group that is
  // already gone (ESRCH) is not an error: the job ended on its own meanwhile.
  static Status signal_group(pid_t pgid, int signal);
};

}  // namespace fairway::agent
