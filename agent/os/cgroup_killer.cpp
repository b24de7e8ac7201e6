#include "agent/os/cgroup_killer.h"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <ctime>

namespace fairway::agent {
namespace {

bool write_word(const std::string& path, const char* word, std::size_t size) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, word, size) == static_cast<ssize_t>(size);
  ::close(fd);
  return ok;
}

void sleep_ms(int ms) {
  timespec ts{ms / 1000, static_cast<long>(ms % 1000) * 1'000'000L};
  while (::nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

// Sends `sig` to each pid listed in cgroup.procs; how many it listed (-1: unreadable).
int signal_listed(const std::string& procs, int sig) {
  const int fd = ::open(procs.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[4096];
  int listed = 0;
  long pid = 0;
  bool in_number = false;
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] >= '0' && buf[i] <= '9') {
        pid = pid * 10 + (buf[i] - '0');
        in_number = true;
      } else if (in_number) {
        if (pid > 1) ::kill(static_cast<pid_t>(pid), sig);
        ++listed;
        pid = 0;
        in_number = false;
      }
    }
  }
  if (in_number) {
    if (pid > 1) ::kill(static_cast<pid_t>(pid), sig);
    ++listed;
  }
  ::close(fd);
  return listed;
}

bool reads_frozen(const std::string& state) {
  const int fd = ::open(state.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[16] = {};
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  return n >= 6 && buf[0] == 'F' && buf[1] == 'R' && buf[2] == 'O' && buf[3] == 'Z' && buf[4] == 'E' &&
         buf[5] == 'N';
}

}  // namespace

void signal_cgroup(const CgroupKillPlan& plan, int sig) {
  if (!plan.empty()) (void)signal_listed(plan.procs_file, sig);
}

bool kill_cgroup(const CgroupKillPlan& plan, int max_ms) {
  if (plan.empty()) return true;
  // v2 (5.14+): the kernel kills every process of the cgroup, forks in flight included.
  bool killed = !plan.kill_file.empty() && write_word(plan.kill_file, "1", 1);
  if (!killed && !plan.freezer_state.empty() && write_word(plan.freezer_state, "FROZEN", 6)) {
    // v1: frozen, nothing in it can fork while its pids are read and killed; SIGKILL takes
    // effect at the thaw.
    for (int waited = 0; waited < 1000 && !reads_frozen(plan.freezer_state); waited += 5) sleep_ms(5);
    (void)signal_listed(plan.procs_file, SIGKILL);
    (void)write_word(plan.freezer_state, "THAWED", 6);
  }
  // Whatever is still listed (no freezer, or a fork that raced the freeze): again until empty.
  for (int waited = 0;; waited += 5) {
    const int left = signal_listed(plan.procs_file, SIGKILL);
    if (left <= 0) return true;  // empty, or the cgroup is gone
    if (waited >= max_ms) return false;
    sleep_ms(5);
  }
}

}  // namespace fairway::agent
