// The client's side of a running step: see step_session.h.
#include "client/fairway/step_session.h"

#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>

#include "shared/net/step_stream.h"
#include "shared/wire/step_exchange.h"
#include "shared/wire/task_usage.h"

namespace fairway::cli {
namespace {

using Clock = std::chrono::steady_clock;
using wire::StepIo;
using wire::StepIoKind;

std::atomic<int> g_interrupts{0};
extern "C" void on_step_interrupt(int) {
  g_interrupts.fetch_add(1);
}
std::atomic<bool> g_resized{false};
extern "C" void on_step_resize(int) {
  g_resized = true;
}

// srun passes these on to the tasks and goes on waiting for them; a batch script that
// dies of a cancel's SIGTERM no longer takes its srun's tasks along before their grace.
constexpr int kForwarded[] = {SIGHUP, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2};
std::atomic<std::uint32_t> g_forward{0};  // bit N: signal N came
extern "C" void on_step_forward(int sig) {
  g_forward.fetch_or(1u << sig);
}

// Installs the forwarding handlers for a scope, and puts the old ones back.
class ForwardedSignals {
 public:
  ForwardedSignals() {
    g_forward = 0;
    struct sigaction on {};
    on.sa_handler = on_step_forward;
    for (std::size_t i = 0; i < std::size(kForwarded); ++i) sigaction(kForwarded[i], &on, &saved_[i]);
  }
  ~ForwardedSignals() {
    for (std::size_t i = 0; i < std::size(kForwarded); ++i) sigaction(kForwarded[i], &saved_[i], nullptr);
  }
  ForwardedSignals(const ForwardedSignals&) = delete;
  ForwardedSignals& operator=(const ForwardedSignals&) = delete;

 private:
  struct sigaction saved_[std::size(kForwarded)]{};
};

// This terminal's size as a kResize value (rows << 16 | columns); nullopt when stdin is
// not a terminal.
std::optional<std::int64_t> terminal_size() {
  winsize size{};
  if (::ioctl(STDIN_FILENO, TIOCGWINSZ, &size) != 0) return std::nullopt;
  return (static_cast<std::int64_t>(size.ws_row) << 16) | size.ws_col;
}

// --pty: our terminal passes every key to the task's (Ctrl-C included, as a byte its line
// discipline turns into SIGINT there) until the step ends.
class RawTerminal {
 public:
  RawTerminal() {
    if (::isatty(STDIN_FILENO) == 0 || ::tcgetattr(STDIN_FILENO, &saved_) != 0) return;
    termios raw = saved_;
    ::cfmakeraw(&raw);
    active_ = ::tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0;
  }
  ~RawTerminal() {
    if (active_) ::tcsetattr(STDIN_FILENO, TCSANOW, &saved_);
  }
  RawTerminal(const RawTerminal&) = delete;
  RawTerminal& operator=(const RawTerminal&) = delete;

 private:
  termios saved_{};
  bool active_ = false;
};

bool same_secret(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

// One node's relay as seen from here.
struct NodeStream {
  int fd = -1;
  bool greeted = false;
  bool done = false;
  net::StepStreamReader reader;
};

class StepSession {
 public:
  StepSession(const wire::StepReply& reply, std::string key, int listen_fd, bool label, bool pty,
              const Output& io, const StepSettings& settings)
      : reply_(reply),
        key_(std::move(key)),
        listen_fd_(listen_fd),
        label_(label && !pty),
        pty_(pty),
        io_(io),
        settings_(settings),
        fence_(reply.nodes.size()) {
    nodes_.resize(reply.nodes.size());
    std::int32_t total = 0;
    for (std::int32_t t : reply.tasks_per_node) total += t;
    total_tasks_ = total;
  }

  StepOutcome run() {
    const auto started = Clock::now();
    auto last_ping = started;
    bool stdin_open = true;
    while (!finished()) {
      handle_interrupts();
      if (pty_ && g_resized.exchange(false)) send_size();
      std::vector<pollfd> fds{{listen_fd_, POLLIN, 0}};
      for (const int fd : pending_) fds.push_back({fd, POLLIN, 0});
      for (const NodeStream& n : nodes_) {
        if (n.fd >= 0) fds.push_back({n.fd, POLLIN, 0});
      }
      // Task 0's stdin: ours, once node 0's relay is there to take it. Each descriptor is
      // polled once and each entry handled by its place: were 0 also a socket of ours (a
      // caller that closed our stdin), reading it twice as both would block.
      const bool read_stdin =
          stdin_open && nodes_[0].greeted && nodes_[0].fd >= 0 &&
          std::none_of(fds.begin(), fds.end(), [](const pollfd& p) { return p.fd == STDIN_FILENO; });
      if (read_stdin) fds.push_back({STDIN_FILENO, POLLIN, 0});
      const int ready = ::poll(fds.data(), fds.size(), 250);
      if (ready < 0 && errno != EINTR) break;
      for (std::size_t i = 0; i < fds.size(); ++i) {
        if (fds[i].revents == 0) continue;
        if (i == 0) {
          accept_all();
        } else if (read_stdin && i + 1 == fds.size()) {
          stdin_open = forward_stdin();
        } else {
          from_relay(fds[i].fd);
        }
      }
      const auto now = Clock::now();
      if (now - last_ping >= std::chrono::seconds(1)) {
        send_all({StepIoKind::kPing, 0, 0, 0, ""});
        last_ping = now;
      }
      if (!all_greeted() && now - started > std::chrono::milliseconds(settings_.start_timeout_ms)) {
        for (std::size_t i = 0; i < nodes_.size(); ++i) {
          if (!nodes_[i].greeted) {
            io_.err << "fairway: error: " << reply_.nodes[i] << ": the step's relay did not call in within "
                    << settings_.start_timeout_ms / 1000 << " s (see the node's agent log)\n";
          }
        }
        send_all({StepIoKind::kSignal, 0, 0, SIGKILL, ""});
        failed_ = true;
        break;
      }
    }
    for (NodeStream& n : nodes_) {
      if (n.fd >= 0) ::close(n.fd);
    }
    for (const int fd : pending_) ::close(fd);
    return outcome();
  }

 private:
  bool all_greeted() const {
    for (const NodeStream& n : nodes_) {
      if (!n.greeted) return false;
    }
    return true;
  }
  bool finished() const {
    for (const NodeStream& n : nodes_) {
      if (!n.done) return false;
    }
    return true;
  }

  void handle_interrupts() {
    const std::uint32_t forward = g_forward.exchange(0);
    for (const int sig : kForwarded) {
      if ((forward & (1u << sig)) == 0) continue;
      last_signal_ = sig;
      send_all({StepIoKind::kSignal, 0, 0, sig, ""});
    }
    const int seen = g_interrupts.exchange(0);
    if (seen == 0) return;
    const auto now = Clock::now();
    // srun's rule: a second Ctrl-C within a second kills the tasks; one asks them to stop.
    const bool kill = seen > 1 || (last_interrupt_ && now - *last_interrupt_ < std::chrono::seconds(1));
    last_interrupt_ = now;
    io_.err << "fairway: "
            << (kill ? "killing the step's tasks"
                     : "interrupt: SIGINT sent to the step's tasks (again within 1 s to kill them)")
            << "\n";
    io_.err.flush();
    last_signal_ = kill ? SIGKILL : SIGINT;
    send_all({StepIoKind::kSignal, 0, 0, *last_signal_, ""});
  }

  void send_all(const StepIo& m) {
    const std::string frame = net::step_frame(m);
    for (NodeStream& n : nodes_) {
      if (n.fd >= 0 && n.greeted) (void)net::write_all(n.fd, frame);
    }
  }

  // Task 0's terminal takes our size (it is on node 0).
  void send_size() {
    const auto size = terminal_size();
    if (size && nodes_[0].fd >= 0)
      (void)net::write_all(nodes_[0].fd, net::step_frame({StepIoKind::kResize, 0, 0, *size, ""}));
  }

  // Connections that have not said hello yet are few and short-lived; past a small number
  // the oldest is dropped, so that silent connections cannot hold the step's descriptors.
  // The listener does not block (listen_step_stream): every waiting connection is taken,
  // and an accept with none waiting returns at once instead of holding the step.
  void accept_all() {
    constexpr std::size_t kMaxPending = 64;
    for (;;) {
      const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) return;
      if (pending_.size() >= kMaxPending) {
        ::close(pending_.front());
        pending_.erase(pending_.begin());
      }
      pending_.push_back(fd);
    }
  }

  bool forward_stdin() {
    char buf[net::kStepChunkBytes];
    const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && errno == EINTR) return true;
    NodeStream& first = nodes_[0];
    if (n <= 0) {
      (void)net::write_all(first.fd, net::step_frame({StepIoKind::kStdinEnd, 0, 0, 0, ""}));
      return false;
    }
    (void)net::write_all(first.fd, net::step_frame({StepIoKind::kStdin, 0, 0, 0,
                                                    std::string(buf, static_cast<std::size_t>(n))}));
    return true;
  }

  // A connection not yet known to be a relay is one of `pending_` until its hello.
  void from_relay(int fd) {
    auto pend = std::find(pending_.begin(), pending_.end(), fd);
    NodeStream* node = nullptr;
    std::size_t index = 0;
    if (pend == pending_.end()) {
      for (std::size_t i = 0; i < nodes_.size(); ++i) {
        if (nodes_[i].fd == fd) node = &nodes_[i], index = i;
      }
      if (node == nullptr) return;
    }
    char buf[net::kStepChunkBytes];
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) return;
    if (n <= 0) {
      ::close(fd);
      if (node == nullptr) {
        pending_.erase(pend);
        return;
      }
      node->fd = -1;
      if (!node->done) {
        io_.err << "fairway: error: " << reply_.nodes[index]
                << ": the step ended before its tasks reported (did the job end?)\n";
        node->done = true;
        failed_ = true;
      }
      return;
    }
    if (node == nullptr) {
      // Its first bytes must be a hello with the key; anything else is dropped unheard.
      net::StepStreamReader probe;
      probe.feed(std::string_view(buf, static_cast<std::size_t>(n)));
      auto hello = probe.next();
      pending_.erase(pend);
      const bool ok = hello && *hello && (*hello)->kind == StepIoKind::kHello &&
                      same_secret((*hello)->data, key_) && (*hello)->node_index >= 0 &&
                      static_cast<std::size_t>((*hello)->node_index) < nodes_.size() &&
                      nodes_[static_cast<std::size_t>((*hello)->node_index)].fd < 0 &&
                      !nodes_[static_cast<std::size_t>((*hello)->node_index)].done;
      if (!ok) {
        ::close(fd);
        return;
      }
      index = static_cast<std::size_t>((*hello)->node_index);
      node = &nodes_[index];
      node->fd = fd;
      node->greeted = true;
      node->reader = std::move(probe);
      // A Ctrl-C that came before this node called in still reaches its tasks.
      if (last_signal_)
        (void)net::write_all(fd, net::step_frame({StepIoKind::kSignal, 0, 0, *last_signal_, ""}));
      if (pty_ && index == 0) send_size();
    } else {
      node->reader.feed(std::string_view(buf, static_cast<std::size_t>(n)));
    }
    while (true) {
      auto m = node->reader.next();
      if (!m) {
        io_.err << "fairway: error: " << reply_.nodes[index] << ": " << m.error().message << "\n";
        ::close(node->fd);
        node->fd = -1;
        node->done = true;
        failed_ = true;
        return;
      }
      if (!*m) return;
      apply(index, **m);
    }
  }

  void apply(std::size_t index, const StepIo& m) {
    const std::string& node = reply_.nodes[index];
    switch (m.kind) {
      case StepIoKind::kStdout:
      case StepIoKind::kStderr:
        write_output(m.kind == StepIoKind::kStdout ? STDOUT_FILENO : STDERR_FILENO, m.rank, m.data);
        break;
      case StepIoKind::kExit:
        exits_[m.rank] = m.value;
        if (auto u = wire::parse_task_usage(m.data)) usage_[m.rank] = *u;
        if (m.value != 0) {
          io_.err << "fairway: error: " << node << ": task " << m.rank
                  << ": "
                  // Slurm's words: "Exited with exit code 3", "Killed", "Terminated".
                  << (m.value > 0 ? "Exited with exit code " + std::to_string(m.value)
                                  : std::string(strsignal(static_cast<int>(-m.value))))
                  << "\n";
          // -K: the others die with it (mpirun's daemons are started so: a lost one must
          // not leave the rest waiting for it).
          if (settings_.kill_on_bad_exit && !killed_for_bad_exit_) {
            killed_for_bad_exit_ = true;
            io_.err << "fairway: error: task " << m.rank
                    << " failed: killing the step's other tasks (--kill-on-bad-exit)\n";
            last_signal_ = SIGKILL;
            send_all({StepIoKind::kSignal, 0, 0, SIGKILL, ""});
          }
        }
        break;
      case StepIoKind::kError:
        io_.err << "fairway: error: " << node
                << (m.rank >= 0 ? ": task " + std::to_string(m.rank) : std::string()) << ": " << m.data
                << "\n";
        if (m.rank < 0) failed_ = true;
        break;
      case StepIoKind::kFence: {
        // MPI's key exchange: once every node entered the fence, each gets all nodes' keys.
        auto joined = fence_.add(static_cast<std::int32_t>(index), m.value, m.data);
        if (!joined) {
          io_.err << "fairway: error: " << node << ": " << joined.error().message << "\n";
          send_all({StepIoKind::kFenceDone, 0, 0, -1, joined.error().message});
        } else if (*joined) {
          send_all({StepIoKind::kFenceDone, 0, 0, m.value, std::move(**joined)});
        }
        break;
      }
      case StepIoKind::kDone:
        nodes_[index].done = true;
        ::close(nodes_[index].fd);
        nodes_[index].fd = -1;
        break;
      default:
        break;
    }
    io_.err.flush();
  }

  // With --label, "RANK: " starts every line, as srun -l writes it.
  void write_output(int fd, std::int32_t rank, const std::string& data) {
    io_.out.flush();
    if (!label_) return (void)net::write_all(fd, data);
    bool& at_start = line_start_.try_emplace({rank, fd}, true).first->second;
    std::string out;
    const std::string prefix = std::to_string(rank) + ": ";
    for (char c : data) {
      if (at_start) out += prefix;
      out += c;
      at_start = c == '\n';
    }
    (void)net::write_all(fd, out);
  }

  StepOutcome outcome() const {
    StepOutcome o = step_outcome(exits_, total_tasks_, failed_);
    // sacct's MaxRSS of a step is its largest task's; TotalCPU, all of its tasks'.
    if (!usage_.empty()) {
      o.max_rss_kb = 0;
      o.cpu_us = 0;
      for (const auto& [rank, u] : usage_) {
        o.max_rss_kb = std::max(*o.max_rss_kb, u.max_rss_kb);
        *o.cpu_us += u.cpu_us;
      }
    }
    return o;
  }

  const wire::StepReply& reply_;
  std::string key_;
  int listen_fd_;
  bool label_;
  bool pty_;
  const Output& io_;
  const StepSettings& settings_;
  std::vector<NodeStream> nodes_;
  std::vector<int> pending_;
  std::map<std::int32_t, std::int64_t> exits_;
  std::map<std::int32_t, wire::TaskUsage> usage_;
  std::map<std::pair<std::int32_t, int>, bool> line_start_;
  std::int32_t total_tasks_ = 0;
  std::optional<Clock::time_point> last_interrupt_;
  std::optional<int> last_signal_;
  bool failed_ = false;
  bool killed_for_bad_exit_ = false;
  wire::FenceGather fence_;
};

}  // namespace

StepOutcome step_outcome(const std::map<std::int32_t, std::int64_t>& exits, std::int32_t tasks,
                         bool node_failed) {
  // Ranked by wait status, as Slurm ranks a step's tasks: any exit code above any signal.
  int worst = node_failed ? 1 << 8 : 0;
  for (std::int32_t r = 0; r < tasks; ++r) {
    auto e = exits.find(r);
    const int status = e == exits.end() ? 1 << 8
                       : e->second >= 0 ? static_cast<int>(e->second & 0xff) << 8
                                        : static_cast<int>(-e->second & 0x7f);
    worst = std::max(worst, status);
  }
  StepOutcome o;
  o.exit_code = worst >> 8;
  o.signal = worst & 0x7f;
  o.exit = o.signal != 0 && o.exit_code == 0 ? 128 + o.signal : o.exit_code;
  return o;
}

StepInterrupts::StepInterrupts() {
  struct sigaction on_int {};
  on_int.sa_handler = on_step_interrupt;
  g_interrupts = 0;
  sigaction(SIGINT, &on_int, &saved_);
}

StepInterrupts::~StepInterrupts() {
  sigaction(SIGINT, &saved_, nullptr);
}

StepOutcome serve_step(const wire::StepReply& step, const std::string& key, int listen_fd, bool label,
                       bool pty, const Output& io, const StepSettings& settings) {
  struct sigaction on_winch {
  }, old_winch{};
  on_winch.sa_handler = on_step_resize;
  sigaction(SIGWINCH, &on_winch, &old_winch);
  StepOutcome outcome;
  {
    ForwardedSignals forwarded;
    std::optional<RawTerminal> raw;
    if (pty) raw.emplace();
    StepSession session(step, key, listen_fd, label, pty, io, settings);
    outcome = session.run();
  }
  sigaction(SIGWINCH, &old_winch, nullptr);
  return outcome;
}

}  // namespace fairway::cli
