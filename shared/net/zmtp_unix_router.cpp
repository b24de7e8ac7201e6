#include "shared/net/zmtp_unix_router.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <deque>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <unordered_map>
#include <utility>

#include "shared/net/zmtp_frames.h"

namespace fairway::net {
namespace {

using Clock = ZmtpUnixRouter::Clock;

constexpr std::uint64_t kListenerKey = 0;
constexpr std::string_view kPeerPrefix = "local:";
// Messages read but not yet taken: beyond this, sockets are left unread (the kernel's
// buffers and then the peers wait), so a flood cannot grow memory without bound.
constexpr std::size_t kMaxPending = 50000;
// Bytes read from one connection per serve(): one busy peer cannot starve the others.
constexpr std::size_t kReadBudget = std::size_t{1} << 20;
constexpr std::size_t kAcceptsPerServe = 256;
// Per-connection buffer capacity kept between messages; beyond it the memory is returned.
constexpr std::size_t kKeptBuffer = std::size_t{256} << 10;
// Out of descriptors: stop accepting for a while rather than spin on a readable listener.
constexpr auto kAcceptPause = std::chrono::milliseconds(500);

enum class Phase { kGreeting, kReady, kOpen };

struct Connection {
  int fd = -1;
  std::string peer;
  PeerCredentials credentials;
  Phase phase = Phase::kGreeting;
  std::string in;
  std::size_t in_at = 0;
  std::string out;
  std::size_t out_at = 0;
  bool watching_out = false;
  bool closing = false;
  // The message being assembled: its part count and first part.
  std::size_t parts = 0;
  std::string first_part;
};

}  // namespace

struct ZmtpUnixRouter::State {
  std::string path;
  Limits limits;
  int listen_fd = -1;
  int epoll_fd = -1;
  ino_t inode = 0;  // of the socket file we made, so we never unlink a successor's
  std::uint64_t next_key = 1;
  std::unordered_map<std::uint64_t, Connection> connections;
  std::unordered_map<std::uint32_t, std::size_t> per_uid;
  std::deque<std::pair<Clock::time_point, std::uint64_t>> handshakes;
  std::deque<Inbound> pending;
  std::uint64_t dropped = 0;
  bool accept_paused = false;
  Clock::time_point accept_resume{};

  ~State() {
    for (auto& [key, c] : connections) ::close(c.fd);
    if (listen_fd >= 0) {
      ::close(listen_fd);
      struct stat st {};
      if (::stat(path.c_str(), &st) == 0 && st.st_ino == inode) ::unlink(path.c_str());
    }
    if (epoll_fd >= 0) ::close(epoll_fd);
  }

  void watch(int fd, std::uint64_t key, std::uint32_t events, int op) {
    epoll_event ev{};
    ev.events = events;
    ev.data.u64 = key;
    ::epoll_ctl(epoll_fd, op, fd, &ev);
  }

  void close_connection(std::uint64_t key) {
    auto it = connections.find(key);
    if (it == connections.end()) return;
    ::epoll_ctl(epoll_fd, EPOLL_CTL_DEL, it->second.fd, nullptr);
    ::close(it->second.fd);
    if (auto u = per_uid.find(it->second.credentials.uid); u != per_uid.end() && --u->second == 0) per_uid.erase(u);
    connections.erase(it);
    resume_accepting();
  }

  void resume_accepting() {
    if (!accept_paused) return;
    accept_paused = false;
    watch(listen_fd, kListenerKey, EPOLLIN, EPOLL_CTL_ADD);
  }

  void flush(std::uint64_t key, Connection& c) {
    while (c.out_at < c.out.size()) {
      const ssize_t n = ::send(c.fd, c.out.data() + c.out_at, c.out.size() - c.out_at, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        c.out_at += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      c.closing = true;  // the peer is gone
      return;
    }
    if (c.out_at == c.out.size()) {
      c.out.clear();
      c.out_at = 0;
      // A long reply (a queue listing) must not pin its buffer for the connection's life.
      if (c.out.capacity() > kKeptBuffer) c.out.shrink_to_fit();
    }
    const bool want_out = c.out_at < c.out.size();
    if (want_out != c.watching_out) {
      watch(c.fd, key, EPOLLIN | (want_out ? EPOLLOUT : 0u), EPOLL_CTL_MOD);
      c.watching_out = want_out;
    }
  }

  // Says why and hangs up: an ERROR command if the peer got as far as speaking ZMTP.
  void refuse(std::uint64_t key, Connection& c, std::string_view why) {
    if (c.phase != Phase::kGreeting) {
      c.out += zmtp::error_frame(why);
      flush(key, c);
    }
    c.closing = true;
    ++dropped;
  }

  void accept_all(Clock::time_point now) {
    for (std::size_t i = 0; i < kAcceptsPerServe; ++i) {
      const int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EINTR || errno == ECONNABORTED) continue;
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
          ::epoll_ctl(epoll_fd, EPOLL_CTL_DEL, listen_fd, nullptr);
          accept_paused = true;
          accept_resume = now + kAcceptPause;
        }
        return;
      }
      ucred cred{};
      socklen_t len = sizeof cred;
      std::string refusal;
      if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
        refusal = "the caller's credentials cannot be read";
      } else if (connections.size() >= limits.max_connections) {
        refusal = "the coordinator has its maximum of " + std::to_string(limits.max_connections) +
                  " client connections open; try again shortly";
      } else if (cred.uid != 0 && per_uid[cred.uid] >= limits.max_connections_per_uid) {
        refusal = "uid " + std::to_string(cred.uid) + " already has " + std::to_string(limits.max_connections_per_uid) +
                  " connections open to the coordinator";
      }
      if (!refusal.empty()) {
        if (auto u = per_uid.find(cred.uid); u != per_uid.end() && u->second == 0) per_uid.erase(u);
        // Said in ZMTP, best effort and without waiting, so the CLI can tell its user why.
        const std::string bye = zmtp::greeting() + zmtp::error_frame(refusal);
        [[maybe_unused]] const ssize_t n = ::send(fd, bye.data(), bye.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        ::close(fd);
        ++dropped;
        continue;
      }
      const std::uint64_t key = next_key++;
      Connection& c = connections[key];
      c.fd = fd;
      c.peer = std::string(kPeerPrefix) + std::to_string(key);
      c.credentials = PeerCredentials{cred.uid, cred.gid, cred.pid};
      ++per_uid[cred.uid];
      handshakes.emplace_back(now, key);
      watch(fd, key, EPOLLIN, EPOLL_CTL_ADD);
      // Our whole greeting and READY at once: a peer's greeting can only be answered one
      // way, so there is nothing to wait for.
      c.out = zmtp::greeting() + zmtp::ready_frame("ROUTER");
      flush(key, c);
      // A one-shot client sends its greeting and request right after connecting: read them
      // now rather than on the loop's next turn.
      if (!c.closing && pending.size() < kMaxPending) read_from(key, c);
      if (c.closing) close_connection(key);
    }
  }

  void read_from(std::uint64_t key, Connection& c) {
    std::size_t budget = kReadBudget;
    char buf[65536];
    while (budget > 0 && !c.closing) {
      const ssize_t n = ::recv(c.fd, buf, std::min(sizeof buf, budget), MSG_DONTWAIT);
      if (n > 0) {
        c.in.append(buf, static_cast<std::size_t>(n));
        budget -= static_cast<std::size_t>(n);
        take_frames(key, c);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      c.closing = true;  // end of stream or a broken connection
    }
  }

  void take_frames(std::uint64_t key, Connection& c) {
    while (!c.closing) {
      const std::string_view avail = std::string_view(c.in).substr(c.in_at);
      if (c.phase == Phase::kGreeting) {
        if (avail.size() < zmtp::kGreetingSize) break;
        if (std::string why = zmtp::check_greeting(avail.substr(0, zmtp::kGreetingSize)); !why.empty()) {
          refuse(key, c, why);
          break;
        }
        c.in_at += zmtp::kGreetingSize;
        c.phase = Phase::kReady;
        continue;
      }
      const zmtp::ParsedFrame f = zmtp::parse_frame(avail, limits.max_frame);
      if (f.kind == zmtp::ParsedFrame::Kind::kNeedMore) break;
      if (f.kind == zmtp::ParsedFrame::Kind::kBad) {
        refuse(key, c, f.why);
        break;
      }
      c.in_at += f.consumed;
      if (c.phase == Phase::kReady) {
        on_ready(key, c, f);
        continue;
      }
      if ((f.flags & zmtp::kCommand) != 0) {
        if (zmtp::command_name(f.body) == "PING") {
          c.out += zmtp::pong_frame(f.body);
          flush(key, c);
        }
        continue;
      }
      if (c.parts++ == 0) c.first_part.assign(f.body);
      if ((f.flags & zmtp::kMore) != 0) continue;
      if (c.parts == 1) {
        pending.push_back(Inbound{c.peer, std::move(c.first_part), c.credentials, {}});
      } else {
        ++dropped;  // a ROUTER's peer sends one-part messages here (REQ's envelope too)
      }
      c.first_part.clear();
      c.parts = 0;
    }
    if (c.in_at == c.in.size()) {
      c.in.clear();
      c.in_at = 0;
      if (c.in.capacity() > kKeptBuffer) c.in.shrink_to_fit();
    } else if (c.in_at > (std::size_t{64} << 10) && c.in_at * 2 > c.in.size()) {
      c.in.erase(0, c.in_at);
      c.in_at = 0;
    }
  }

  void on_ready(std::uint64_t key, Connection& c, const zmtp::ParsedFrame& f) {
    if ((f.flags & zmtp::kCommand) == 0) {
      refuse(key, c, "data before READY");
      return;
    }
    auto props = zmtp::ready_properties(f.body);
    if (!props) {
      refuse(key, c, props.error().message);
      return;
    }
    std::string type;
    for (const auto& [name, value] : *props) {
      if (name == "Socket-Type") type = value;
    }
    // The socket types a ROUTER may talk to (rfc.zeromq.org/spec/28).
    if (type != "DEALER" && type != "REQ" && type != "ROUTER") {
      refuse(key, c, "invalid socket type \"" + type + "\" for a ROUTER");
      return;
    }
    c.phase = Phase::kOpen;
  }
};

ZmtpUnixRouter::ZmtpUnixRouter(std::unique_ptr<State> state) : s_(std::move(state)) {}
ZmtpUnixRouter::ZmtpUnixRouter(ZmtpUnixRouter&&) noexcept = default;
ZmtpUnixRouter& ZmtpUnixRouter::operator=(ZmtpUnixRouter&&) noexcept = default;
ZmtpUnixRouter::~ZmtpUnixRouter() = default;

Result<ZmtpUnixRouter> ZmtpUnixRouter::bind(const std::string& path, Limits limits) {
  const auto fail = [&](const std::string& why) {
    return make_error(ErrorCode::kIo, "cannot listen on ipc://" + path + ": " + why);
  };
  sockaddr_un addr{};
  if (path.empty() || path.size() >= sizeof addr.sun_path) return fail("the socket path is empty or too long");
  auto s = std::make_unique<State>();
  s->path = path;
  s->limits = limits;
  s->listen_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (s->listen_fd < 0) return fail(std::strerror(errno));
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  if (::bind(s->listen_fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    const int err = errno;
    ::close(s->listen_fd);
    s->listen_fd = -1;  // not ours: never unlinked
    return fail(std::strerror(err));
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) s->inode = st.st_ino;
  if (::listen(s->listen_fd, SOMAXCONN) != 0) return fail(std::strerror(errno));
  s->epoll_fd = ::epoll_create1(EPOLL_CLOEXEC);
  if (s->epoll_fd < 0) return fail(std::strerror(errno));
  s->watch(s->listen_fd, kListenerKey, EPOLLIN, EPOLL_CTL_ADD);
  return ZmtpUnixRouter(std::move(s));
}

int ZmtpUnixRouter::fd() const { return s_->epoll_fd; }

void ZmtpUnixRouter::serve(Clock::time_point now) {
  State& s = *s_;
  if (s.accept_paused && now >= s.accept_resume) s.resume_accepting();
  epoll_event events[64];
  for (int round = 0; round < 8; ++round) {
    const int n = ::epoll_wait(s.epoll_fd, events, 64, 0);
    if (n <= 0) break;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t key = events[i].data.u64;
      if (key == kListenerKey) {
        s.accept_all(now);
        continue;
      }
      auto it = s.connections.find(key);
      if (it == s.connections.end()) continue;
      Connection& c = it->second;
      if ((events[i].events & EPOLLOUT) != 0) s.flush(key, c);
      if ((events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) != 0 && s.pending.size() < kMaxPending) {
        s.read_from(key, c);
      }
      if (c.closing) s.close_connection(key);
    }
    if (n < 64) break;
  }
  while (!s.handshakes.empty() && now - s.handshakes.front().first >= s.limits.handshake_timeout) {
    const std::uint64_t key = s.handshakes.front().second;
    s.handshakes.pop_front();
    auto it = s.connections.find(key);
    if (it != s.connections.end() && it->second.phase != Phase::kOpen) {
      ++s.dropped;
      s.close_connection(key);
    }
  }
}

std::optional<Inbound> ZmtpUnixRouter::receive() {
  if (s_->pending.empty()) return std::nullopt;
  Inbound in = std::move(s_->pending.front());
  s_->pending.pop_front();
  return in;
}

bool ZmtpUnixRouter::has_pending() const { return !s_->pending.empty(); }

Status ZmtpUnixRouter::send(std::string_view peer, std::string_view frame) {
  State& s = *s_;
  std::uint64_t key = 0;
  if (peer.starts_with(kPeerPrefix)) {
    const std::string_view digits = peer.substr(kPeerPrefix.size());
    std::from_chars(digits.data(), digits.data() + digits.size(), key);
  }
  auto it = s.connections.find(key);
  if (key == kListenerKey || it == s.connections.end() || it->second.closing) {
    return make_error(ErrorCode::kIo, "peer " + std::string(peer) + " is gone");
  }
  Connection& c = it->second;
  if (c.out.size() - c.out_at + frame.size() > s.limits.max_output_bytes) {
    return make_error(ErrorCode::kIo, "peer " + std::string(peer) + " does not read its replies (" +
                                          std::to_string(c.out.size() - c.out_at) + " bytes queued)");
  }
  c.out += zmtp::frame_header(0, frame.size());
  c.out += frame;
  s.flush(key, c);
  if (c.closing) {
    s.close_connection(key);
    return make_error(ErrorCode::kIo, "peer " + std::string(peer) + " is gone");
  }
  return ok_status();
}

std::uint64_t ZmtpUnixRouter::dropped() const { return s_->dropped; }
std::size_t ZmtpUnixRouter::connections() const { return s_->connections.size(); }
const std::string& ZmtpUnixRouter::path() const { return s_->path; }

}  // namespace fairway::net
