#include "agent/os/child_reaper.h"

#include <sys/wait.h>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>

namespace fairway::agent {

ProcessExit process_exit_from_wait_status(int wait_status) {
  if (WIFSIGNALED(wait_status)) return ProcessExit::signalled(WTERMSIG(wait_status));
  return ProcessExit::exited(WEXITSTATUS(wait_status));
}

Result<std::vector<ReapedChild>> ChildReaper::reap() const {
  std::vector<ReapedChild> reaped;
  for (;;) {
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      reaped.push_back({pid, process_exit_from_wait_status(status)});
      continue;
    }
    if (pid == 0) break;
    if (errno == EINTR) continue;
    if (errno == ECHILD) break;
    return make_error(ErrorCode::kIo, std::string("waitpid: ") + std::strerror(errno));
  }
  return reaped;
}

Status ChildReaper::signal_group(pid_t pgid, int signal) {
  if (pgid <= 1) {
    // kill(-1) or kill(0) would hit every process we may signal, or the agent itself.
    return invalid_argument("signal_group: pgid " + std::to_string(pgid) + " is not a job's group");
  }
  if (::kill(-pgid, signal) == 0 || errno == ESRCH) return ok_status();
  return make_error(ErrorCode::kIo, "kill(-" + std::to_string(pgid) + ", " + std::to_string(signal) +
                                        "): " + std::strerror(errno));
}

}  // namespace fairway::agent
