#include "coordinator/daemon/program_mailer.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "shared/base/log.h"

extern char** environ;

namespace fairway::daemon {

ProgramMailer::~ProgramMailer() {
  reap();
}

Status ProgramMailer::send(const std::string& message) {
  if (program_.empty()) return ok_status();
  if (::access(program_.c_str(), X_OK) != 0) {
    return make_error(ErrorCode::kNotFound, "no mail sent: " + program_ + " is not there (" +
                                                std::strerror(errno) +
                                                "); set [coordinator] mail_program, or \"\" to stop trying");
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return make_error(ErrorCode::kIo, std::string("pipe2: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::string arg0 = program_, t = "-t", oi = "-oi";
  char* argv[] = {arg0.data(), t.data(), oi.data(), nullptr};
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, program_.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[0]);
  if (rc != 0) {
    ::close(fds[1]);
    return make_error(ErrorCode::kIo, "cannot start " + program_ + ": " + std::strerror(rc));
  }
  pids_.push_back(pid);
  // A message is far below the pipe's buffer: the write does not wait for the reader. A
  // reader that died early must not kill the coordinator with SIGPIPE: it is blocked for
  // the write and a pending one is consumed, whatever the process's disposition.
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  std::size_t off = 0;
  bool broken = false;
  while (off < message.size()) {
    const ssize_t n = ::write(fds[1], message.data() + off, message.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      broken = n < 0 && errno == EPIPE;
      break;
    }
    off += static_cast<std::size_t>(n);
  }
  ::close(fds[1]);
  if (broken && !sigismember(&old, SIGPIPE)) {
    const timespec none{0, 0};
    (void)::sigtimedwait(&pipe_only, nullptr, &none);
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return ok_status();
}

void ProgramMailer::reap() {
  std::erase_if(pids_, [&](pid_t pid) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == 0) return false;
    if (r == pid && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
      log_event(LogLevel::kWarning, "mail_failed",
                {{"program", program_},
                 {"status", WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                              : "signal " + std::to_string(WTERMSIG(status))}});
    }
    return true;
  });
}

}  // namespace fairway::daemon
