#include "agent/step/step_relay.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/step/pmi_server.h"
#include "agent/step/pmix_server.h"
#include "shared/base/try.h"
#include "shared/net/step_stream.h"
#include "shared/wire/task_usage.h"

namespace fairway::agent {
namespace {

using Clock = std::chrono::steady_clock;
using wire::StepIo;
using wire::StepIoKind;

// A task's end wakes the relay's poll (a byte on this pipe, written by the SIGCHLD
// handler): its pipes can close a moment before it can be reaped, and waiting for the
// poll's timeout instead held every step's end back by up to that long.
int g_child_pipe[2] = {-1, -1};
extern "C" void on_child(int) {
  const int saved = errno;
  (void)!::write(g_child_pipe[1], "c", 1);
  errno = saved;
}

// The signals the agent sends a step's group (a cancel's TERM, scancel --signal, the
// --signal warning) reach the tasks directly; the relay itself must outlive them to pass
// on what the tasks still write in their grace. It notes them: srun (in the job's
// group) passes the same signal on, and the tasks must not get it twice.
constexpr int kDirectSignals[] = {SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGTERM, SIGXCPU};
volatile sig_atomic_t g_direct[65] = {};
extern "C" void on_held_signal(int) {}
extern "C" void on_direct_signal(int sig) {
  g_direct[sig] = 1;
  on_child(sig);  // wakes the poll the same way
}

// The client pings every second; this long without a word and it is gone (killed, or its
// host lost): the tasks are stopped, as srun's are when srun dies.
constexpr auto kClientSilence = std::chrono::seconds(30);
// Output a task's children still write after it exited is taken this long.
constexpr auto kDrainAfterExit = std::chrono::seconds(2);
// The client's copy of a signal that reached the relay's group this recently is the same one.
constexpr auto kSameSignal = std::chrono::seconds(2);

struct Task {
  std::int32_t rank = 0;
  pid_t pid = -1;
  int out = -1, err = -1, in = -1;
  std::optional<int> status;    // wait4's, once reaped
  std::int64_t max_rss_kb = 0;  // its largest resident set (or its largest reaped child's)
  std::int64_t cpu_us = 0;      // user + system CPU time, its reaped children's included
  Clock::time_point reaped_at;
  bool reported = false;
  bool own_session = false;  // --pty's task 0: outside the relay's group, signals reach it from us
};

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Each local task's CPUs (empty: unbound) and what every task is told of them; worked out
// once, before the first fork.
struct Binding {
  std::vector<std::vector<int>> per_task;
  std::vector<std::pair<std::string, std::string>> env;
};
Binding g_binding;

// srun --mpi=pmi2 or pmix: the node's PMI server (its sockets made before the forks).
std::unique_ptr<StepPmi> g_pmi;

// The agent passes the job's cores here only where it binds jobs (binding applied): where
// it does not, no task is bound but to the CPUs srun named (map_cpu:, mask_cpu:), since
// the node's other jobs would share the same CPU numbers.
void work_out_binding(const RelayPlan& plan) {
  CpuBind bind = plan.cpu_bind;
  const bool named = bind.type == CpuBindType::kMapCpu || bind.type == CpuBindType::kMaskCpu;
  if (plan.core_pus.empty() && !named) bind.type = CpuBindType::kNone;
  g_binding.per_task = task_cpus(bind, plan.core_pus, plan.local_tasks(), plan.cpus_per_task);
  g_binding.env = cpu_bind_environment(bind, g_binding.per_task);
}

// In the task, before exec: its CPUs, as task/affinity binds them (a binding the job's
// cpuset refuses is reported and the task runs unbound, as Slurm's does).
void bind_task(const RelayPlan& plan, std::int32_t local) {
  const auto& cpus = g_binding.per_task[static_cast<std::size_t>(local)];
  if (cpus.empty()) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) {
    if (c >= 0 && c < CPU_SETSIZE) CPU_SET(c, &set);
  }
  const std::string& node = plan.nodes[static_cast<std::size_t>(plan.node_index)];
  if (::sched_setaffinity(0, sizeof set, &set) != 0) {
    const std::string why = "fairway-step: " + node + ": task " + std::to_string(plan.rank_of(local)) +
                            ": cannot bind to CPUs " + cpu_mask_hex(cpus) + ": " + std::strerror(errno) +
                            "\n";
    (void)!::write(STDERR_FILENO, why.data(), why.size());
    return;
  }
  if (plan.cpu_bind.verbose) {
    // Slurm's line for --cpu-bind=verbose.
    const std::string line = "cpu-bind=MASK - " + node + ", task " + std::to_string(plan.rank_of(local)) +
                             " " + std::to_string(local) + " [" + std::to_string(::getpid()) + "]: mask " +
                             cpu_mask_hex(cpus) + " set\n";
    (void)!::write(STDERR_FILENO, line.data(), line.size());
  }
}

[[noreturn]] void exec_task(const RelayPlan& plan, std::int32_t local) {
  // The relay ignores SIGPIPE; a task must not inherit that (`yes | head` would not end).
  ::signal(SIGPIPE, SIG_DFL);
  for (const auto& [k, v] : task_environment(plan, local)) ::setenv(k.c_str(), v.c_str(), 1);
  for (const auto& [k, v] : g_binding.env) ::setenv(k.c_str(), v.c_str(), 1);
  if (g_pmi) {
    for (const auto& [k, v] : g_pmi->task_environment(local)) ::setenv(k.c_str(), v.c_str(), 1);
  }
  // As slurmstepd: the task's own pid, known only once it is forked.
  ::setenv("SLURM_TASK_PID", std::to_string(::getpid()).c_str(), 1);
  bind_task(plan, local);
  std::vector<char*> argv;
  for (const std::string& a : plan.command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  const std::string why = "fairway-step: cannot run '" + plan.command.front() + "' on " +
                          plan.nodes[static_cast<std::size_t>(plan.node_index)] + ": " +
                          std::strerror(errno) + "\n";
  (void)!::write(STDERR_FILENO, why.data(), why.size());
  ::_exit(errno == ENOENT ? 127 : 126);
}

// srun --pty: task 0 gets a pseudo-terminal as its controlling terminal; its output and
// input both go through the master (`out`, and `stdin_write`, a second descriptor of it).
Task start_pty_task(const RelayPlan& plan, std::int32_t local, int& stdin_write) {
  Task t;
  t.rank = plan.rank_of(local);
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) {
    if (master >= 0) ::close(master);
    return t;
  }
  const char* name = ::ptsname(master);
  const std::string slave_path = name != nullptr ? name : "";
  t.pid = ::fork();
  if (t.pid == 0) {
    ::setsid();
    const int slave = ::open(slave_path.c_str(), O_RDWR);
    if (slave < 0 || ::ioctl(slave, TIOCSCTTY, 0) != 0) ::_exit(126);
    ::dup2(slave, STDIN_FILENO);
    ::dup2(slave, STDOUT_FILENO);
    ::dup2(slave, STDERR_FILENO);
    if (slave > STDERR_FILENO) ::close(slave);
    exec_task(plan, local);
  }
  if (t.pid < 0) {
    ::close(master);
    return t;
  }
  t.out = master;
  t.own_session = true;
  stdin_write = ::fcntl(master, F_DUPFD_CLOEXEC, 3);
  return t;
}

// Forks one task: its own stdout/stderr pipes, stdin from `stdin_read` (or /dev/null).
// Single-threaded here, so the child may set variables and search PATH before exec.
Task start_task(const RelayPlan& plan, std::int32_t local, bool takes_stdin, int& stdin_write) {
  if (takes_stdin && plan.pty) return start_pty_task(plan, local, stdin_write);
  Task t;
  t.rank = plan.rank_of(local);
  int out[2], err[2], in[2] = {-1, -1};
  if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0 ||
      (takes_stdin && ::pipe2(in, O_CLOEXEC) != 0)) {
    return t;
  }
  t.pid = ::fork();
  if (t.pid == 0) {
    const int null_fd = ::open("/dev/null", O_RDONLY);
    ::dup2(takes_stdin ? in[0] : null_fd, STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(err[1], STDERR_FILENO);
    exec_task(plan, local);
  }
  ::close(out[1]);
  ::close(err[1]);
  t.out = out[0];
  t.err = err[0];
  if (takes_stdin) {
    ::close(in[0]);
    stdin_write = in[1];
  }
  if (t.pid < 0) {
    close_fd(t.out);
    close_fd(t.err);
    close_fd(stdin_write);
  }
  return t;
}

class Relay {
 public:
  Relay(const RelayPlan& plan, int sock) : plan_(plan), sock_(sock) {}

  bool send(StepIo m) {
    m.node_index = plan_.node_index;
    if (!sock_ok_) return false;
    sock_ok_ = net::write_all(sock_, net::step_frame(m));
    return sock_ok_;
  }

  int run() {
    const auto key_hello = StepIo{StepIoKind::kHello, 0, plan_.first_rank(), plan_.local_tasks(), plan_.key};
    if (!send(key_hello)) return 1;
    if (::chdir(plan_.working_dir.c_str()) != 0) {
      send({StepIoKind::kError, 0, -1, 0,
            "cannot enter the working directory '" + plan_.working_dir + "': " + std::strerror(errno)});
      send({StepIoKind::kDone, 0, -1, 0, ""});
      return 0;
    }
    work_out_binding(plan_);
    if (auto pmi = open_pmi(); !pmi) {
      send({StepIoKind::kError, 0, -1, 0, pmi.error().message});
      send({StepIoKind::kDone, 0, -1, 0, ""});
      return 0;
    }
    for (std::int32_t l = 0; l < plan_.local_tasks(); ++l) {
      const bool takes_stdin = plan_.rank_of(l) == 0;
      Task t = start_task(plan_, l, takes_stdin, stdin_);
      if (t.pid < 0) {
        send({StepIoKind::kError, 0, t.rank, 0,
              std::string("cannot start the task: ") + std::strerror(errno)});
        t.status = 127 << 8;
        t.reaped_at = Clock::now();
      }
      tasks_.push_back(t);
    }
    if (g_pmi) g_pmi->close_task_ends();
    last_heard_ = Clock::now();
    while (!all_reported()) {
      if (!turn()) return abandon();
    }
    send({StepIoKind::kDone, 0, -1, 0, ""});
    // The client closes once it has everything; we wait a little for that.
    ::shutdown(sock_, SHUT_WR);
    pollfd p{sock_, POLLIN, 0};
    char scratch[256];
    while (::poll(&p, 1, 5000) == 1 && ::read(sock_, scratch, sizeof scratch) > 0) {
    }
    return 0;
  }

 private:
  // The PMI the step asked for (none, pmi2, pmix), its server ready before the first fork.
  Status open_pmi() {
    if (plan_.mpi.empty()) return ok_status();
    std::vector<std::int32_t> local_ranks;
    for (std::int32_t l = 0; l < plan_.local_tasks(); ++l) local_ranks.push_back(plan_.rank_of(l));
    const std::string id = plan_.job_id + "." + std::to_string(plan_.step);
    if (plan_.mpi == "pmi2") {
      auto server = std::make_unique<PmiServer>(PmiJob{id, plan_.node_of_rank(), local_ranks});
      FAIRWAY_TRY(server->open());
      g_pmi = std::move(server);
      return ok_status();
    }
    auto server = open_pmix_server(
        PmixStep{"slurm.pmix." + id, plan_.node_of_rank(), local_ranks, plan_.nodes, plan_.node_index});
    if (!server) return std::unexpected(server.error());
    g_pmi = std::move(*server);
    return ok_status();
  }

  bool all_reported() const {
    for (const Task& t : tasks_) {
      if (!t.reported) return false;
    }
    return true;
  }

  void stop_tasks(int sig) {
    for (const Task& t : tasks_) {
      if (t.pid > 0 && !t.status) ::kill(t.pid, sig);
    }
  }

  // Whether `sig` reached this relay's group directly a moment ago.
  bool heard_directly(int sig, Clock::time_point now) const {
    const auto it = direct_at_.find(sig);
    return it != direct_at_.end() && now - it->second < kSameSignal;
  }

  void note_direct_signals() {
    const auto now = Clock::now();
    for (const int sig : kDirectSignals) {
      if (g_direct[sig] == 0) continue;
      g_direct[sig] = 0;
      direct_at_[sig] = now;
      for (const Task& t : tasks_) {
        if (t.own_session && t.pid > 0 && !t.status) ::kill(t.pid, sig);
      }
    }
  }

  // The client is gone (killed with the job's script, or its host lost): the tasks end as
  // srun's do when srun dies, SIGTERM (unless the job's stop sent it) and the grace to
  // finish writing, then SIGKILL. Their output still drains, so that none blocks on a pipe.
  int abandon() {
    abandoned_ = true;
    sock_ok_ = false;
    const auto now = Clock::now();
    note_direct_signals();
    if (!direct_at_.contains(SIGTERM)) stop_tasks(SIGTERM);
    const auto kill_at = now + std::chrono::seconds(plan_.grace_s);
    while (!all_reported() && Clock::now() < kill_at) (void)turn();
    stop_tasks(SIGKILL);
    return 1;
  }

  // One poll: output, the client's messages, reaped tasks. False when the client is gone.
  bool turn() {
    std::vector<pollfd> fds{{abandoned_ ? -1 : sock_, POLLIN, 0}, {g_child_pipe[0], POLLIN, 0}};
    std::vector<std::pair<std::size_t, bool>> which;  // task index, is stderr
    for (std::size_t i = 0; i < tasks_.size(); ++i) {
      if (tasks_[i].out >= 0) {
        fds.push_back({tasks_[i].out, POLLIN, 0});
        which.emplace_back(i, false);
      }
      if (tasks_[i].err >= 0) {
        fds.push_back({tasks_[i].err, POLLIN, 0});
        which.emplace_back(i, true);
      }
    }
    const std::size_t first_pmi = fds.size();
    const std::vector<int> pmi_fds = g_pmi ? g_pmi->fds() : std::vector<int>{};
    for (const int fd : pmi_fds) fds.push_back({fd, POLLIN, 0});
    (void)::poll(fds.data(), fds.size(), 200);
    note_direct_signals();  // before the client's messages: its copy of a signal comes later
    if (fds[0].revents != 0 && !from_client()) return false;
    for (std::size_t k = 0; k < pmi_fds.size(); ++k) {
      if (pmi_fds[k] >= 0 && fds[first_pmi + k].revents != 0)
        g_pmi->on_readable(static_cast<std::int32_t>(k));
    }
    if (g_pmi) serve_pmi();
    if (fds[1].revents != 0) {
      char drained[64];
      while (::read(g_child_pipe[0], drained, sizeof drained) > 0) {
      }
    }
    for (std::size_t k = 2; k < first_pmi; ++k) {
      if (fds[k].revents == 0) continue;
      Task& t = tasks_[which[k - 2].first];
      int& fd = which[k - 2].second ? t.err : t.out;
      char buf[net::kStepChunkBytes];
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n > 0) {
        send({which[k - 2].second ? StepIoKind::kStderr : StepIoKind::kStdout, 0, t.rank, 0,
              std::string(buf, static_cast<std::size_t>(n))});
      } else if (n == 0 || errno != EINTR) {
        close_fd(fd);
      }
    }
    reap();
    const auto now = Clock::now();
    for (Task& t : tasks_) {
      if (t.reported || !t.status) continue;
      if ((t.out >= 0 || t.err >= 0) && now - t.reaped_at < kDrainAfterExit) continue;
      close_fd(t.out);
      close_fd(t.err);
      const int s = *t.status;
      // The data carries the task's usage for sacct (a client that does not read it ignores it).
      send({StepIoKind::kExit, 0, t.rank, WIFSIGNALED(s) ? -WTERMSIG(s) : WEXITSTATUS(s),
            wire::format_task_usage({t.max_rss_kb, t.cpu_us})});
      t.reported = true;
    }
    if (!sock_ok_) return false;
    return now - last_heard_ < kClientSilence;
  }

  // What the PMI server has for srun: this node's part of a fence, or a task's abort (the
  // step ends, as Slurm ends it on PMI_Abort).
  void serve_pmi() {
    if (auto fence = g_pmi->take_fence())
      send({StepIoKind::kFence, 0, -1, fence->first, std::move(fence->second)});
    if (auto why = g_pmi->take_abort()) {
      send({StepIoKind::kError, 0, -1, 0, *why});
      stop_tasks(SIGKILL);
    }
  }

  void reap() {
    int status = 0;
    pid_t pid = 0;
    rusage usage{};
    while ((pid = ::wait4(-1, &status, WNOHANG, &usage)) > 0) {
      for (Task& t : tasks_) {
        if (t.pid == pid) {
          t.status = status;
          t.max_rss_kb = usage.ru_maxrss;
          t.cpu_us = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1'000'000LL + usage.ru_utime.tv_usec +
                     usage.ru_stime.tv_usec;
          t.reaped_at = Clock::now();
        }
      }
    }
  }

  bool from_client() {
    char buf[net::kStepChunkBytes];
    const ssize_t n = ::read(sock_, buf, sizeof buf);
    if (n == 0) return false;  // the client closed: it is gone (it closes only after Done)
    if (n < 0) return errno == EINTR || errno == EAGAIN;
    last_heard_ = Clock::now();
    reader_.feed(std::string_view(buf, static_cast<std::size_t>(n)));
    while (true) {
      auto m = reader_.next();
      if (!m) return false;
      if (!*m) return true;
      apply(**m);
    }
  }

  void apply(const StepIo& m) {
    switch (m.kind) {
      case StepIoKind::kSignal:
        // srun passing on what its group got from the agent, which the tasks got already.
        if (m.value >= 1 && m.value <= 64 && !heard_directly(static_cast<int>(m.value), Clock::now())) {
          stop_tasks(static_cast<int>(m.value));
        }
        break;
      case StepIoKind::kStdin:
        if (stdin_ >= 0 && !net::write_all(stdin_, m.data)) close_fd(stdin_);
        break;
      case StepIoKind::kStdinEnd:
        // A terminal has no end of input to give: its line discipline takes ^D instead.
        if (!plan_.pty) close_fd(stdin_);
        break;
      case StepIoKind::kFenceDone:
        if (g_pmi) {
          g_pmi->fence_done(m.value, m.data);
          serve_pmi();
        }
        break;
      case StepIoKind::kResize:
        if (plan_.pty && stdin_ >= 0) {
          winsize size{};
          size.ws_row = static_cast<unsigned short>((m.value >> 16) & 0xFFFF);
          size.ws_col = static_cast<unsigned short>(m.value & 0xFFFF);
          (void)::ioctl(stdin_, TIOCSWINSZ, &size);
        }
        break;
      default:
        break;  // pings, and what only relays send
    }
  }

  const RelayPlan& plan_;
  int sock_;
  bool sock_ok_ = true;
  int stdin_ = -1;
  std::vector<Task> tasks_;
  net::StepStreamReader reader_;
  Clock::time_point last_heard_;
  bool abandoned_ = false;
  std::map<int, Clock::time_point> direct_at_;
};

}  // namespace

int run_step_relay(const RelayPlan& plan) {
  auto sock = net::connect_step_stream(plan.address, 10000);
  if (!sock) return 1;
  // A task that writes to a stdin pipe whose reader is gone must not kill the relay.
  ::signal(SIGPIPE, SIG_IGN);
  // Before any task is forked, so that no end is missed; the tasks get default handlers
  // back at exec, and the pipe (close-on-exec) stays ours.
  if (::pipe2(g_child_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return 1;
  struct sigaction on_chld {};
  on_chld.sa_handler = on_child;
  on_chld.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  ::sigaction(SIGCHLD, &on_chld, nullptr);
  struct sigaction on_direct {};
  on_direct.sa_handler = on_direct_signal;
  on_direct.sa_flags = SA_RESTART;
  for (const int sig : kDirectSignals) ::sigaction(sig, &on_direct, nullptr);
  Relay relay(plan, *sock);
  const int code = relay.run();
  g_pmi.reset();  // PMIx's server ends (and its directory goes) before the process does
  ::close(*sock);
  return code;
}

void hold_allocation() {
  // scancel --signal reaches the holder's group with the steps' tasks: only a stop (TERM,
  // or KILL) ends the hold.
  struct sigaction note {};
  note.sa_handler = on_held_signal;
  for (const int sig : kDirectSignals) {
    if (sig != SIGTERM) ::sigaction(sig, &note, nullptr);
  }
  for (;;) ::pause();
}

}  // namespace fairway::agent
