// What one local user can make the coordinator's router hold (issue 33, item 3): PINGs
// whose PONGs are never read, and frames announced and never finished, sent through the
// real socket by a process that is not root. Each attack must end with its connections
// closed and the bytes held for its uid never above the budget.
#include "shared/net/zmtp_unix_router.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include "shared/net/zmtp_frames.h"

namespace fairway::net {
namespace {

using namespace std::chrono_literals;
using Clock = ZmtpUnixRouter::Clock;

constexpr std::uint32_t kNobody = 65534;

class ZmtpUnixRouterBudgetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/fairway-router-budget.XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    path_ = dir_ + "/c.sock";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  ZmtpUnixRouter bind(ZmtpUnixRouter::Limits limits) {
    auto r = ZmtpUnixRouter::bind(path_, limits);
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    if (::getuid() == 0) {  // as the daemon opens it, so that the child (nobody) can connect
      std::filesystem::permissions(dir_, std::filesystem::perms(0777));
      std::filesystem::permissions(path_, std::filesystem::perms(0666));
    }
    return std::move(*r);
  }

  // The uid the attacking child runs as: nobody when the test is root, else the test's.
  static std::uint32_t attacker_uid() { return ::getuid() == 0 ? kNobody : ::getuid(); }
  static void become_attacker() {
    if (::getuid() == 0 && ::setuid(kNobody) != 0) ::_exit(100);
  }

  int raw_connect() const {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path_.c_str());
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return -1;
    return fd;
  }

  // False once the peer has gone (the router hung up).
  static bool write_all(int fd, std::string_view bytes) {
    std::size_t at = 0;
    while (at < bytes.size()) {
      const ssize_t n = ::send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
      if (n <= 0) return false;
      at += static_cast<std::size_t>(n);
    }
    return true;
  }

  // Whether the peer closes within `d` (whatever it sent first is read and ignored).
  static bool closed_within(int fd, std::chrono::milliseconds d) {
    const auto until = Clock::now() + d;
    while (Clock::now() < until) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      char buf[65536];
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) return true;
    }
    return false;
  }

  // Serves while the child runs, with the clock `now()` gives; returns the most bytes held
  // for the attacker's uid seen after any serve(), and the child's exit status.
  template <typename Now>
  static std::size_t serve_until_exit(ZmtpUnixRouter& router, pid_t child, int* status, Now now) {
    std::size_t most = 0;
    while (::waitpid(child, status, WNOHANG) == 0) {
      router.serve(now());
      while (router.receive()) {
      }
      most = std::max(most, router.held_by(attacker_uid()));
      pollfd p{router.fd(), POLLIN, 0};
      ::poll(&p, 1, 2);
    }
    return most;
  }

  std::string dir_, path_;
};

std::string hello() {
  return zmtp::greeting() + zmtp::ready_frame("DEALER");
}

std::string ping(std::size_t i) {
  std::string body = "\x04PING";
  body += std::string("\x00\x0a", 2);
  std::string ctx = "ctx-" + std::to_string(i);
  ctx.resize(16, '.');
  body += ctx;
  return zmtp::frame_header(zmtp::kCommand, body.size()) + body;
}

TEST_F(ZmtpUnixRouterBudgetTest, APingFloodThatNeverReadsItsPongsIsCutOffAtTheUidBudget) {
  ZmtpUnixRouter::Limits limits;
  limits.max_bytes_per_uid = std::size_t{1} << 20;
  auto router = bind(limits);
  const pid_t child = ::fork();
  if (child == 0) {
    become_attacker();
    const int fd = raw_connect();
    if (fd < 0 || !write_all(fd, hello())) ::_exit(101);
    // 32 MiB of PINGs in batches, never reading a PONG: exits 0 if hung up on before the end.
    std::string batch;
    for (int i = 0; i < 4096; ++i) batch += ping(static_cast<std::size_t>(i));
    for (std::size_t sent = 0; sent < (std::size_t{32} << 20); sent += batch.size()) {
      if (!write_all(fd, batch)) ::_exit(0);
    }
    ::_exit(1);
  }
  int status = 0;
  const std::size_t most = serve_until_exit(router, child, &status, [] { return Clock::now(); });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the flood was never cut off";
  EXPECT_LE(most, limits.max_bytes_per_uid);
  router.serve(Clock::now());
  EXPECT_EQ(router.connections(), 0u);
  EXPECT_EQ(router.held_by(attacker_uid()), 0u);
}

TEST_F(ZmtpUnixRouterBudgetTest, FramesAnnouncedAndNeverFinishedAreBoundedAndTimedOut) {
  ZmtpUnixRouter::Limits limits;
  limits.max_bytes_per_uid = std::size_t{1} << 20;
  limits.max_frame = std::size_t{1} << 20;
  limits.frame_timeout = 10s;
  auto router = bind(limits);
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  constexpr int kConnections = 8;
  const pid_t child = ::fork();
  if (child == 0) {
    become_attacker();
    ::close(ready[0]);
    // Each connection announces a 512 KiB frame and sends 300 KiB of it: 2.4 MiB in all
    // if nothing stopped them. (A frame the budget could never hold is refused from its
    // header; these fit one by one.)
    int fds[kConnections];
    const std::string part =
        hello() + zmtp::frame_header(0, std::size_t{512} << 10) + std::string(300 << 10, 'x');
    for (int& fd : fds) {
      fd = raw_connect();
      if (fd >= 0) write_all(fd, part);
    }
    (void)!::write(ready[1], "r", 1);
    int closed = 0;
    for (int fd : fds) closed += fd < 0 || closed_within(fd, 5s) ? 1 : 0;
    ::_exit(closed);
  }
  ::close(ready[1]);
  // Real time until the child has written all it will; then the clock jumps past the
  // frame timeout.
  std::size_t most = 0;
  for (;;) {
    router.serve(Clock::now());
    most = std::max(most, router.held_by(attacker_uid()));
    pollfd p{ready[0], POLLIN, 0};
    if (::poll(&p, 1, 2) > 0) break;
  }
  for (int i = 0; i < 50; ++i) {
    router.serve(Clock::now());
    most = std::max(most, router.held_by(attacker_uid()));
    std::this_thread::sleep_for(2ms);
  }
  ::close(ready[0]);
  EXPECT_GT(router.connections(), 0u);  // some stalled frames fit in the budget: held until the timeout
  const auto start = Clock::now();
  router.serve(start + 9s);
  EXPECT_GT(router.connections(), 0u);
  int status = 0;
  most = std::max(most, serve_until_exit(router, child, &status, [] { return Clock::now() + 11s; }));
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), kConnections) << "connections with unfinished frames were left open";
  EXPECT_LE(most, limits.max_bytes_per_uid);
  EXPECT_EQ(router.connections(), 0u);
  EXPECT_EQ(router.held_by(attacker_uid()), 0u);
}

}  // namespace
}  // namespace fairway::net
