#include "agent/os/job_keeper.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <ctime>

namespace fairway::agent {
namespace {

// Everything below runs after fork() in a process that had threads: async-signal-safe
// calls only (no allocation, no stdio, no locks).

std::size_t append_int(char* out, std::size_t at, std::int64_t v) {
  char digits[24];
  std::size_t n = 0;
  const bool negative = v < 0;
  std::uint64_t u = negative ? static_cast<std::uint64_t>(-(v + 1)) + 1 : static_cast<std::uint64_t>(v);
  do {
    digits[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (negative) out[at++] = '-';
  while (n > 0) out[at++] = digits[--n];
  return at;
}

std::size_t append_text(char* out, std::size_t at, const char* text) {
  while (*text != '\0') out[at++] = *text++;
  return at;
}

std::int64_t monotonic_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec;
}

// The lease deadline the agent last published; false when there is none (no agent ever
// wrote one, or the file is unreadable): then the keeper never fences on its own.
bool read_lease_deadline(const char* path, std::int64_t& deadline) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  char buf[32];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return false;
  std::int64_t v = 0;
  bool any = false;
  for (ssize_t i = 0; i < n && buf[i] >= '0' && buf[i] <= '9'; ++i) {
    v = v * 10 + (buf[i] - '0');
    any = true;
  }
  if (!any) return false;
  deadline = v;
  return true;
}

void write_exit_record(const KeeperPlan& plan, int status, bool fenced, const rusage& used) {
  char buf[160];
  std::size_t n = 0;
  if (WIFSIGNALED(status)) {
    n = append_text(buf, n, "signalled ");
    n = append_int(buf, n, WTERMSIG(status));
  } else {
    n = append_text(buf, n, "exited ");
    n = append_int(buf, n, WEXITSTATUS(status));
  }
  // The keeper stopped it (no agent renewed the lease): not the job's doing, so the agent
  // reports it as the node's failure and the coordinator requeues it.
  if (fenced) n = append_text(buf, n, " fenced");
  // What it used (sacct's MaxRSS and TotalCPU of the batch script's line).
  n = append_text(buf, n, " rss_kb=");
  n = append_int(buf, n, used.ru_maxrss);
  n = append_text(buf, n, " cpu_us=");
  n = append_int(buf, n,
                 (used.ru_utime.tv_sec + used.ru_stime.tv_sec) * 1'000'000LL + used.ru_utime.tv_usec +
                     used.ru_stime.tv_usec);
  buf[n++] = '\n';
  const int fd =
      ::open(plan.exit_record_tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return;
  const bool written = ::write(fd, buf, n) == static_cast<ssize_t>(n);
  ::close(fd);
  if (written) ::rename(plan.exit_record_tmp.c_str(), plan.exit_record_path.c_str());
}

// Ends the keeper the way the job ended, so that whoever reaps it learns the job's status.
[[noreturn]] void end_like(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);  // the job may have dumped core; the keeper must not
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(sig, &dfl, nullptr);
    sigset_t only;
    ::sigemptyset(&only);
    ::sigaddset(&only, sig);
    ::sigprocmask(SIG_UNBLOCK, &only, nullptr);
    ::kill(::getpid(), sig);
    ::_exit(128 + sig);  // a signal that does not kill (cannot kill a job either)
  }
  ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 125);
}

// The checkpoint, pid and pgid added; tmp then rename, as the agent writes it.
void write_checkpoint(const KeeperPlan& plan, pid_t keeper, pid_t job) {
  if (plan.checkpoint_path.empty()) return;
  char ids[64];
  std::size_t n = 0;
  n = append_text(ids, n, "pid ");
  n = append_int(ids, n, keeper);
  n = append_text(ids, n, "\npgid ");
  n = append_int(ids, n, job);
  ids[n++] = '\n';
  const int fd =
      ::open(plan.checkpoint_tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return;
  const std::string& text = plan.checkpoint_text;
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
                       ::write(fd, ids, n) == static_cast<ssize_t>(n);
  ::close(fd);
  if (written) ::rename(plan.checkpoint_tmp.c_str(), plan.checkpoint_path.c_str());
}

void send_pid(int fd, std::int32_t value) {
  [[maybe_unused]] const ssize_t n = ::write(fd, &value, sizeof value);
}

}  // namespace

void run_keeper(const KeeperPlan& plan, int pid_fd, int report_fd, StartJobFn start_job,
                const void* context) {
  // Its own session: the agent's process group signals (systemd stopping the agent) do
  // not reach it, and it outlives the agent (KillMode=process).
  if (::setsid() < 0) {
    send_pid(pid_fd, -errno);
    ::_exit(126);
  }
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) ::sigaction(sig, &action, nullptr);
  }
  action.sa_handler = SIG_IGN;
  for (const int sig : {SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT}) ::sigaction(sig, &action, nullptr);
  // SIGCHLD stays blocked: the keeper waits for it with sigtimedwait, never a handler.
  sigset_t chld;
  ::sigemptyset(&chld);
  ::sigaddset(&chld, SIGCHLD);
  ::sigprocmask(SIG_SETMASK, &chld, nullptr);

  // vfork: the keeper is a copy of the agent, and copying its page tables again for every
  // job halved the agent's launch rate. The job only makes syscalls until it execs or
  // _exits (as posix_spawn's child does), and the keeper waits meanwhile.
  const pid_t job = ::vfork();
  if (job < 0) {
    send_pid(pid_fd, -errno);
    ::_exit(126);
  }
  if (job == 0) {
    if (::setpgid(0, 0) != 0) ::_exit(127);
    start_job(context, report_fd);
    ::_exit(127);
  }
  // The job's copy of pid_fd closes at its exec (CLOEXEC) or _exit.
  ::close(report_fd);  // the job's copy alone tells the agent about its exec
  write_checkpoint(plan, ::getpid(), job);
  send_pid(pid_fd, static_cast<std::int32_t>(job));
  ::close(pid_fd);
  // Nothing of the agent's stays open here (sockets, the store, its journal stream).
  const int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd >= 0) {
    ::dup2(null_fd, STDIN_FILENO);
    ::dup2(null_fd, STDOUT_FILENO);
    ::dup2(null_fd, STDERR_FILENO);
  }
  ::close_range(3, ~0U, 0);

  bool fencing = false;
  std::int64_t kill_at = 0;
  // The last deadline read: a lease file that vanishes (its spool wiped) must not keep the
  // job alive forever. Before any was read, the keeper does not fence on its own.
  bool have_deadline = false;
  std::int64_t deadline = 0;
  for (;;) {
    int status = 0;
    rusage used{};
    const pid_t r = ::wait4(job, &status, WNOHANG, &used);
    if (r == job) {
      // Processes the job left outside its group (setsid) end with it, before its end is
      // recorded: the coordinator may start it again elsewhere once it learns of the end.
      if (fencing || plan.end_kills_cgroup) (void)kill_cgroup(plan.cgroup, 2000);
      write_exit_record(plan, status, fencing, used);
      end_like(status);
    }
    if (r < 0 && errno != EINTR) ::_exit(125);  // the job is not ours: cannot happen
    // A second past the agent's own fencing: a live agent always fences first (and says
    // why); the keeper does it only when no agent renewed the lease.
    const std::int64_t now = monotonic_seconds();
    std::int64_t published = 0;
    if (read_lease_deadline(plan.lease_path.c_str(), published)) {
      deadline = published;
      have_deadline = true;
    }
    if (!fencing && have_deadline && now > deadline + 1) {
      ::kill(-job, SIGTERM);
      signal_cgroup(plan.cgroup, SIGTERM);
      fencing = true;
      kill_at = now + plan.fence_grace_s;
    } else if (fencing && now >= kill_at) {
      ::kill(-job, SIGKILL);
      (void)kill_cgroup(plan.cgroup, 1000);
    }
    const timespec second{1, 0};
    ::sigtimedwait(&chld, nullptr, &second);
  }
}

}  // namespace fairway::agent
