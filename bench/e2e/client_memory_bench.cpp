// What one local user can make a real coordinator hold through its ipc:// client socket
// (issue 33, item 3): a PING flood that never reads its PONGs, then connections that
// announce a 32 MiB frame and never finish it, both from a child that became nobody.
// Prints the coordinator's resident memory before, at its peak, while the attacker holds
// its connections open, and after the frame timeout. Not part of ctest (it runs ~30 s).
//   fairway_client_memory_bench [--coordinator BINARY] [--ping-mib N] [--stalled N]
// Run as root (the attacker drops to uid 65534); --coordinator measures another build.
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "shared/net/curve_keys.h"
#include "shared/net/zmtp_frames.h"

namespace {

using namespace fairway;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

double rss_mib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("VmRSS:")) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0;
}

int connect_to(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool write_all(int fd, std::string_view bytes) {
  for (std::size_t at = 0; at < bytes.size();) {
    const ssize_t n = ::send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
    if (n <= 0) return false;
    at += static_cast<std::size_t>(n);
  }
  return true;
}

std::string hello() {
  return net::zmtp::greeting() + net::zmtp::ready_frame("DEALER");
}

// Runs `attack` in a child that became nobody; it writes one byte to `done` when it has
// sent all it will, then holds its connections until the parent closes `hold`.
struct Attacker {
  pid_t pid = -1;
  int done = -1;
  int hold = -1;
};

Attacker start_attacker(const std::function<std::vector<int>()>& attack) {
  int done[2], hold[2];
  if (::pipe(done) != 0 || ::pipe(hold) != 0) std::exit(1);
  Attacker a;
  a.pid = ::fork();
  if (a.pid == 0) {
    ::close(done[0]);
    ::close(hold[1]);
    if (::getuid() == 0 && ::setuid(65534) != 0) ::_exit(100);
    const std::vector<int> fds = attack();
    (void)!::write(done[1], "d", 1);
    char c;
    (void)!::read(hold[0], &c, 1);
    for (int fd : fds) ::close(fd);
    ::_exit(0);
  }
  ::close(done[1]);
  ::close(hold[0]);
  a.done = done[0];
  a.hold = hold[1];
  return a;
}

// Samples the coordinator's RSS until the attacker says it is done; returns the peak.
double peak_until_done(pid_t coordinator, const Attacker& a) {
  double peak = 0;
  for (;;) {
    peak = std::max(peak, rss_mib(coordinator));
    pollfd p{a.done, POLLIN, 0};
    if (::poll(&p, 1, 20) > 0) break;
  }
  return std::max(peak, rss_mib(coordinator));
}

void release(Attacker& a) {
  ::close(a.hold);
  ::close(a.done);
  int status = 0;
  ::waitpid(a.pid, &status, 0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string coordinator = FAIRWAY_COORDINATOR_BINARY;
  std::size_t ping_mib = 300;
  int stalled = 30;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--coordinator") coordinator = argv[i + 1];
    if (flag == "--ping-mib") ping_mib = std::stoul(argv[i + 1]);
    if (flag == "--stalled") stalled = std::stoi(argv[i + 1]);
  }
  char tmpl[] = "/tmp/fairway-memory-bench.XXXXXX";
  const std::string dir = ::mkdtemp(tmpl);
  ::chmod(dir.c_str(), 0755);  // nobody reaches the socket
  std::filesystem::create_directories(dir + "/keys/agents");
  auto keys = net::generate_curve_keypair();
  if (!keys || !net::write_curve_keypair(dir + "/keys", "coordinator", *keys)) {
    std::fprintf(stderr, "client_memory_bench: cannot make the coordinator's keys in %s\n", dir.c_str());
    return 1;
  }
  std::ofstream(dir + "/fairway.toml")
      << "[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n"
      << "[security]\ncoordinator_secret_key = \"" << dir << "/keys/coordinator.key\"\n"
      << "coordinator_public_key = \"" << dir << "/keys/coordinator.pub\"\n"
      << "agent_keys_dir = \"" << dir << "/keys/agents\"\n";
  const std::string sock = dir + "/c.sock";
  // A free port for the agents' endpoint (no agent comes).
  int port = 0;
  {
    const int probe = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    ::bind(probe, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::getsockname(probe, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(addr.sin_port);
    ::close(probe);
  }
  const std::string agents = "tcp://127.0.0.1:" + std::to_string(port);
  const pid_t daemon = ::fork();
  if (daemon == 0) {
    const int log = ::open((dir + "/coordinator.log").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    ::dup2(log, 1);
    ::dup2(log, 2);
    ::execl(coordinator.c_str(), coordinator.c_str(), "--config", (dir + "/fairway.toml").c_str(),
            "--listen-agents", agents.c_str(), "--listen-clients", ("ipc://" + sock).c_str(), "--state-dir",
            (dir + "/state").c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  for (int i = 0; i < 500 && !std::filesystem::exists(sock); ++i) std::this_thread::sleep_for(20ms);
  std::this_thread::sleep_for(500ms);
  std::printf("coordinator %s\n", coordinator.c_str());
  std::printf("baseline_rss_mib %.1f\n", rss_mib(daemon));

  // 1. PINGs, never reading a PONG.
  const std::size_t ping_bytes = ping_mib << 20;
  Attacker flood = start_attacker([&] {
    const int fd = connect_to(sock);
    if (fd < 0 || !write_all(fd, hello())) return std::vector<int>{};
    std::string body = "\x04PING";
    body += std::string("\x00\x0a", 2) + std::string(16, 'c');
    const std::string ping = net::zmtp::frame_header(net::zmtp::kCommand, body.size()) + body;
    std::string batch;
    for (int i = 0; i < 40000; ++i) batch += ping;
    for (std::size_t sent = 0; sent < ping_bytes && write_all(fd, batch); sent += batch.size()) {
    }
    return std::vector<int>{fd};
  });
  const double flood_peak = peak_until_done(daemon, flood);
  std::this_thread::sleep_for(500ms);
  std::printf("ping_flood_mib %zu peak_rss_mib %.1f held_rss_mib %.1f\n", ping_mib, flood_peak,
              rss_mib(daemon));
  release(flood);
  std::this_thread::sleep_for(500ms);
  std::printf("after_ping_flood_rss_mib %.1f\n", rss_mib(daemon));

  // 2. Frames announced as 32 MiB and never finished.
  Attacker stall = start_attacker([&] {
    std::vector<int> fds;
    const std::string part = hello() + net::zmtp::frame_header(0, std::size_t{32} << 20) +
                             std::string((std::size_t{32} << 20) - 1, 'x');
    for (int i = 0; i < stalled; ++i) {
      const int fd = connect_to(sock);
      if (fd < 0) continue;
      write_all(fd, part);  // fails once the coordinator hangs up
      fds.push_back(fd);
    }
    return fds;
  });
  const double stall_peak = peak_until_done(daemon, stall);
  std::this_thread::sleep_for(500ms);
  std::printf("stalled_frames %d peak_rss_mib %.1f held_rss_mib %.1f\n", stalled, stall_peak,
              rss_mib(daemon));
  std::this_thread::sleep_for(12s);  // past the frame timeout (10 s)
  std::printf("stalled_frames_after_12s_rss_mib %.1f\n", rss_mib(daemon));
  release(stall);
  ::kill(daemon, SIGTERM);
  int status = 0;
  ::waitpid(daemon, &status, 0);
  std::filesystem::remove_all(dir);
  return 0;
}
