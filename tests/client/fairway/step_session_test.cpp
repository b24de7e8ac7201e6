// The client's side of a step against relays played by the test: only a relay that knows
// the step's key, for a node of the step not yet connected, is heard; what it sends is
// written out and its tasks' exits make the step's.
#include "client/fairway/step_session.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "shared/net/step_stream.h"

namespace fairway::cli {
namespace {

using wire::StepIo;
using wire::StepIoKind;

const std::string kKey = "0123456789abcdef0123456789abcdef";

// Sends `frames` on a fresh connection; true when the client then closes it unheard
// (before any Done: the client closes a relay's connection only after its Done, or when
// it refuses the relay).
bool refused(const std::string& address, const std::vector<StepIo>& frames) {
  auto fd = net::connect_step_stream(address, 2000);
  if (!fd) return false;
  for (const StepIo& f : frames) (void)net::write_all(*fd, net::step_frame(f));
  // A heard relay gets the client's pings within a second; a refused one is closed.
  pollfd p{*fd, POLLIN, 0};
  char buf[64];
  const bool closed = ::poll(&p, 1, 3000) == 1 && ::read(*fd, buf, sizeof buf) == 0;
  ::close(*fd);
  return closed;
}

// Redirects this process's stdout (where the session writes task output) and stdin
// (/dev/null) while it lives; text() is what was written.
class CapturedStdio {
 public:
  CapturedStdio() {
    std::fflush(stdout);
    out_ = ::dup(STDOUT_FILENO);
    in_ = ::dup(STDIN_FILENO);
    std::snprintf(path_, sizeof path_, "/tmp/fw-step-out-XXXXXX");
    const int file = ::mkstemp(path_);
    ::dup2(file, STDOUT_FILENO);
    ::close(file);
    const int null = ::open("/dev/null", O_RDONLY);
    ::dup2(null, STDIN_FILENO);
    ::close(null);
  }
  ~CapturedStdio() {
    ::dup2(out_, STDOUT_FILENO);
    ::dup2(in_, STDIN_FILENO);
    ::close(out_);
    ::close(in_);
    ::unlink(path_);
  }
  std::string text() const {
    std::ifstream f(path_);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }

 private:
  int out_ = -1, in_ = -1;
  char path_[64] = {};
};

TEST(StepSession, OnlyARelayWithTheKeyForANodeOfTheStepIsHeard) {
  auto listening = net::listen_step_stream("127.0.0.1");
  ASSERT_TRUE(listening) << listening.error().message;
  const auto [listen_fd, address] = *listening;
  const wire::StepReply step{JobId(42), 0, {"n1"}, {1}};
  std::ostringstream out, err;
  const Output io{out, err};
  StepSettings settings;
  settings.start_timeout_ms = 10000;

  bool wrong_key = false, wrong_node = false, no_hello = false, second = false;
  std::thread relays([&, address = address] {
    wrong_key = refused(address, {{StepIoKind::kHello, 0, 0, 1, "fedcba9876543210fedcba9876543210"}});
    wrong_node = refused(address, {{StepIoKind::kHello, 5, 0, 1, kKey}});
    no_hello = refused(address, {{StepIoKind::kStdout, 0, 0, 0, "forged output\n"}});
    // The real relay: its output is written, its task's exit is the step's.
    auto fd = net::connect_step_stream(address, 2000);
    ASSERT_TRUE(fd);
    for (const StepIo& f : std::vector<StepIo>{{StepIoKind::kHello, 0, 0, 1, kKey},
                                               {StepIoKind::kStdout, 0, 0, 0, "hello from n1\n"}}) {
      ASSERT_TRUE(net::write_all(*fd, net::step_frame(f)));
    }
    // A second relay claiming the same node while the first is connected is refused.
    second =
        refused(address, {{StepIoKind::kHello, 0, 0, 1, kKey}, {StepIoKind::kStdout, 0, 0, 0, "twice\n"}});
    for (const StepIo& f :
         std::vector<StepIo>{{StepIoKind::kExit, 0, 0, 3, ""}, {StepIoKind::kDone, 0, -1, 0, ""}}) {
      ASSERT_TRUE(net::write_all(*fd, net::step_frame(f)));
    }
    // Until the client closes it, having everything (bounded: a client that never does
    // fails the test instead of hanging it).
    char buf[256];
    pollfd p{*fd, POLLIN, 0};
    while (::poll(&p, 1, 3000) == 1 && ::read(*fd, buf, sizeof buf) > 0) {
    }
    ::close(*fd);
  });
  StepOutcome outcome;
  std::string printed;
  {
    CapturedStdio stdio;
    outcome = serve_step(step, kKey, listen_fd, false, false, io, settings);
    printed = stdio.text();
  }
  relays.join();
  ::close(listen_fd);
  EXPECT_TRUE(wrong_key);
  EXPECT_TRUE(wrong_node);
  EXPECT_TRUE(no_hello);
  EXPECT_TRUE(second);
  EXPECT_EQ(printed, "hello from n1\n");
  EXPECT_EQ(outcome.exit, 3);
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_EQ(outcome.signal, 0);
  EXPECT_NE(err.str().find("n1: task 0: Exited with exit code 3"), std::string::npos) << err.str();
}

// What sacct records (code:signal) and what srun exits with, as Slurm ranks a step's tasks.
TEST(StepSession, TheWorstTaskDecidesHowTheStepEnded) {
  auto o = step_outcome({{0, 0}, {1, 0}}, 2, false);
  EXPECT_EQ(o.exit, 0);
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_EQ(o.signal, 0);
  o = step_outcome({{0, 0}, {1, -9}}, 2, false);  // killed: 0:9, srun exits 137
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_EQ(o.signal, 9);
  EXPECT_EQ(o.exit, 137);
  o = step_outcome({{0, -9}, {1, 2}, {2, 1}}, 3, false);  // an exit code outranks a signal
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.signal, 0);
  EXPECT_EQ(o.exit, 2);
  o = step_outcome({{0, 0}}, 2, false);  // task 1 never heard of
  EXPECT_EQ(o.exit_code, 1);
  o = step_outcome({{0, 0}}, 1, true);  // a node failed
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.exit, 1);
}

// A caller that closed our stdin (mpiexec -launcher slurm starts srun so) once left the
// listener on descriptor 0, polled both as the listener and as stdin: a second relay's
// connection was accepted twice and the second, blocking accept held the step forever.
// The session runs in a child here, so that a hang fails the test instead of holding it.
TEST(StepSession, AListenerOnDescriptorZeroIsPolledOnceAndTheStepEnds) {
  auto listening = net::listen_step_stream("127.0.0.1");
  ASSERT_TRUE(listening) << listening.error().message;
  const auto [listen_fd, address] = *listening;
  const wire::StepReply step{JobId(42), 0, {"n1", "n2"}, {1, 1}};
  std::fflush(stdout);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::dup2(listen_fd, STDIN_FILENO);
    ::close(listen_fd);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    std::ostringstream out, err;
    StepSettings settings;
    settings.start_timeout_ms = 10000;
    const StepOutcome o = serve_step(step, kKey, STDIN_FILENO, false, false, Output{out, err}, settings);
    ::_exit(o.exit);
  }
  ::close(listen_fd);
  // Each relay: hello, its task's exit, done; then it waits for the client to close.
  const auto relay = [&, address = address](std::int32_t node) -> std::optional<int> {
    auto fd = net::connect_step_stream(address, 2000);
    if (!fd) return std::nullopt;
    for (const StepIo& f : std::vector<StepIo>{{StepIoKind::kHello, node, node, 1, kKey}}) {
      if (!net::write_all(*fd, net::step_frame(f))) return std::nullopt;
    }
    return *fd;
  };
  const auto finish = [](int fd, std::int32_t node) {
    for (const StepIo& f :
         std::vector<StepIo>{{StepIoKind::kExit, node, node, 0, ""}, {StepIoKind::kDone, node, -1, 0, ""}}) {
      (void)net::write_all(fd, net::step_frame(f));
    }
  };
  auto first = relay(0);
  ASSERT_TRUE(first);
  // Node 0 is heard once the client pings it: from then on the client reads its stdin.
  pollfd p{*first, POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 5000), 1);
  auto second = relay(1);
  ASSERT_TRUE(second);
  finish(*first, 0);
  finish(*second, 1);
  int status = -1;
  for (int i = 0; i < 150 && ::waitpid(child, &status, WNOHANG) == 0; ++i) ::usleep(100'000);
  if (::waitpid(child, &status, WNOHANG) == 0) {
    ::kill(child, SIGKILL);
    ::waitpid(child, &status, 0);
    ADD_FAILURE() << "the step did not end within 15 s of both relays' Done";
  } else {
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  ::close(*first);
  ::close(*second);
}

}  // namespace
}  // namespace fairway::cli
