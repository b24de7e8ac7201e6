#include "shared/net/zmtp_unix_router.h"

#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <deque>
#include <unordered_map>
#include <utility>

#include "shared/base/log.h"
#include "shared/net/frame_deadlines.h"
#include "shared/net/uid_budget.h"
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
// Over-budget log lines: at most one a second (a user at its budget could otherwise
// write one per connection attempt), with the number left out.
constexpr auto kBudgetLogGap = std::chrono::seconds(1);

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
  // Bytes of in, out and first_part charged to the uid's budget.
  std::size_t charged = 0;
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
  UidBudget budget{0, 0};
  FrameDeadlines deadlines{std::chrono::milliseconds(0)};
  Clock::time_point last_now{};
  Clock::time_point last_budget_log{};
  std::uint64_t budget_logs_left_out = 0;
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
    budget.charge(it->second.credentials.uid, -static_cast<std::ptrdiff_t>(it->second.charged));
    budget.disconnected(it->second.credentials.uid);
    deadlines.forget(key);
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
      const ssize_t n =
          ::send(c.fd, c.out.data() + c.out_at, c.out.size() - c.out_at, MSG_NOSIGNAL | MSG_DONTWAIT);
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
    recount(c);
  }

  // Brings the uid's charge for this connection's buffers up to date.
  void recount(Connection& c) {
    const std::size_t bytes = c.in.size() + c.out.size() + c.first_part.size();
    budget.charge(c.credentials.uid,
                  static_cast<std::ptrdiff_t>(bytes) - static_cast<std::ptrdiff_t>(c.charged));
    c.charged = bytes;
  }

  // Whether `bytes` more may be queued to this peer; if not, it is told why (when nothing
  // it has not read is ahead of that) and hung up on, and false.
  bool room_for(Connection& c, std::size_t bytes, std::string_view what) {
    recount(c);
    const std::uint32_t uid = c.credentials.uid;
    const std::size_t queued = c.out.size() - c.out_at;
    std::string why;
    if (bytes > budget.room(uid)) {
      why = "uid " + std::to_string(uid) + " holds " + std::to_string(budget.held(uid)) +
            " bytes in the coordinator and " + std::string(what) + " of " + std::to_string(bytes) +
            " more would pass its limit of " + std::to_string(budget.max_bytes());
    } else if (queued + bytes > limits.max_output_bytes) {
      why = "peer " + c.peer + " does not read its replies (" + std::to_string(queued) + " bytes queued)";
    } else {
      return true;
    }
    hang_up(c, why, "client_over_budget");
    return false;
  }

  // Closes a connection for a limit: one log line (rate-limited) naming the uid and the
  // bytes held, and an ERROR the peer can read if nothing unread is queued before it. The
  // ERROR is written now or never, so it is never held.
  void hang_up(Connection& c, const std::string& why, std::string_view event) {
    const std::uint32_t uid = c.credentials.uid;
    if (last_now - last_budget_log >= kBudgetLogGap || last_budget_log == Clock::time_point{}) {
      log_event(LogLevel::kWarning, event,
                {{"uid", std::to_string(uid)},
                 {"pid", std::to_string(c.credentials.pid)},
                 {"peer", c.peer},
                 {"held_bytes", std::to_string(budget.held(uid))},
                 {"limit_bytes", std::to_string(budget.max_bytes())},
                 {"left_out", std::to_string(budget_logs_left_out)},
                 {"why", why}});
      last_budget_log = last_now;
      budget_logs_left_out = 0;
    } else {
      ++budget_logs_left_out;
    }
    if (c.phase != Phase::kGreeting && c.out_at == c.out.size()) {
      const std::string bye = zmtp::error_frame(why);
      [[maybe_unused]] const ssize_t n = ::send(c.fd, bye.data(), bye.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    c.closing = true;
    ++dropped;
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
      } else if (!budget.may_connect(cred.uid)) {
        refusal = "uid " + std::to_string(cred.uid) + " already has " +
                  std::to_string(limits.max_connections_per_uid) + " connections open to the coordinator";
      }
      if (!refusal.empty()) {
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
      budget.connected(cred.uid);
      handshakes.emplace_back(now, key);
      watch(fd, key, EPOLLIN, EPOLL_CTL_ADD);
      // Our whole greeting and READY at once: a peer's greeting can only be answered one
      // way, so there is nothing to wait for.
      c.out = zmtp::greeting() + zmtp::ready_frame("ROUTER");
      flush(key, c);
      // A one-shot client sends its greeting and request right after connecting: read them
      // now rather than on the loop's next turn.
      if (!c.closing && pending.size() < kMaxPending) read_from(key, c, now);
      if (c.closing) close_connection(key);
    }
  }

  void read_from(std::uint64_t key, Connection& c, Clock::time_point now) {
    std::size_t left = kReadBudget;
    char buf[65536];
    bool finished_one = false;
    while (left > 0 && !c.closing) {
      recount(c);
      // Never read past the uid's budget: what is read is held until it is taken.
      const std::size_t room = budget.room(c.credentials.uid);
      if (room == 0) {
        char probe = 0;
        const ssize_t more = ::recv(c.fd, &probe, 1, MSG_DONTWAIT | MSG_PEEK);
        if (more < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) break;
        if (more <= 0) {
          c.closing = true;
          break;
        }
        hang_up(c,
                "uid " + std::to_string(c.credentials.uid) + " holds " +
                    std::to_string(budget.held(c.credentials.uid)) +
                    " bytes in the coordinator, its limit, and sent more",
                "client_over_budget");
        break;
      }
      const ssize_t n = ::recv(c.fd, buf, std::min({sizeof buf, left, room}), MSG_DONTWAIT);
      if (n > 0) {
        c.in.append(buf, static_cast<std::size_t>(n));
        left -= static_cast<std::size_t>(n);
        finished_one = take_frames(key, c) || finished_one;
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      c.closing = true;  // end of stream or a broken connection
    }
    recount(c);
    deadlines.after_read(key, c.in_at < c.in.size() || c.parts > 0, finished_one, now);
  }

  // Closes connections whose unfinished message is older than the frame timeout.
  void drop_stalled(Clock::time_point now) {
    // Nothing is read while the loop's backlog is full: a peer's frame is not its fault then.
    if (pending.size() >= kMaxPending) return;
    for (const auto& [key, age] : deadlines.expired(now)) {
      const auto it = connections.find(key);
      if (it == connections.end()) continue;
      Connection& c = it->second;
      hang_up(c,
              "a message begun " + std::to_string(age.count()) + " ms ago is unfinished (" +
                  std::to_string(c.in.size() - c.in_at + c.first_part.size()) +
                  " bytes held); the limit is " + std::to_string(limits.frame_timeout.count()) + " ms",
              "client_frame_timeout");
      close_connection(key);
    }
  }

  // Takes whole frames from the connection's input; true if a message (or a command
  // outside a message) was finished.
  bool take_frames(std::uint64_t key, Connection& c) {
    bool finished_one = false;
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
      if (f.kind == zmtp::ParsedFrame::Kind::kNeedMore) {
        if (f.needed > 0) make_room_for_frame(c, f.needed);
        break;
      }
      if (f.kind == zmtp::ParsedFrame::Kind::kBad) {
        refuse(key, c, f.why);
        break;
      }
      c.in_at += f.consumed;
      if (c.phase == Phase::kReady) {
        on_ready(key, c, f);
        finished_one = true;
        continue;
      }
      if ((f.flags & zmtp::kCommand) != 0) {
        if (c.parts == 0) finished_one = true;
        if (zmtp::command_name(f.body) == "PING") {
          // A PONG is a reply like any other: it counts against the peer's and the uid's
          // limits, so a peer that pings and never reads cannot grow our memory.
          std::string pong = zmtp::pong_frame(f.body);
          if (!room_for(c, pong.size(), "a PONG")) break;
          c.out += pong;
          flush(key, c);
        }
        continue;
      }
      if (c.parts++ == 0) c.first_part.assign(f.body);
      if ((f.flags & zmtp::kMore) != 0) continue;
      finished_one = true;
      if (c.parts == 1) {
        budget.charge(c.credentials.uid, static_cast<std::ptrdiff_t>(c.first_part.size()));
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
    return finished_one;
  }

  // A frame's header is in and its body is not: a frame the uid's budget cannot hold is
  // refused now, from its header; one it can is given its whole buffer at once, so that
  // growing the buffer as it arrives never overshoots the budget by doubling it.
  void make_room_for_frame(Connection& c, std::size_t needed) {
    if (c.in.capacity() - c.in_at >= needed) return;
    c.in.erase(0, c.in_at);
    c.in_at = 0;
    recount(c);
    const std::uint32_t uid = c.credentials.uid;
    const std::size_t to_come = needed - c.in.size();
    if (to_come > budget.room(uid)) {
      hang_up(c,
              "a frame of " + std::to_string(needed) + " bytes would take uid " + std::to_string(uid) +
                  " past its limit of " + std::to_string(budget.max_bytes()) +
                  " bytes held in the coordinator (it holds " + std::to_string(budget.held(uid)) + ")",
              "client_over_budget");
      return;
    }
    c.in.reserve(needed);
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
  if (path.empty() || path.size() >= sizeof addr.sun_path)
    return fail("the socket path is empty or too long");
  auto s = std::make_unique<State>();
  s->path = path;
  s->limits = limits;
  s->budget = UidBudget(limits.max_connections_per_uid, limits.max_bytes_per_uid);
  s->deadlines = FrameDeadlines(limits.frame_timeout);
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

int ZmtpUnixRouter::fd() const {
  return s_->epoll_fd;
}

void ZmtpUnixRouter::serve(Clock::time_point now) {
  State& s = *s_;
  s.last_now = now;
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
        s.read_from(key, c, now);
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
  s.drop_stalled(now);
}

std::optional<Inbound> ZmtpUnixRouter::receive() {
  if (s_->pending.empty()) return std::nullopt;
  Inbound in = std::move(s_->pending.front());
  s_->pending.pop_front();
  s_->budget.charge(in.credentials->uid, -static_cast<std::ptrdiff_t>(in.frame.size()));
  return in;
}

bool ZmtpUnixRouter::has_pending() const {
  return !s_->pending.empty();
}

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
  const std::string header = zmtp::frame_header(0, frame.size());
  if (const std::uint32_t uid = c.credentials.uid; !s.room_for(c, header.size() + frame.size(), "a reply")) {
    const std::size_t held = s.budget.held(uid);
    s.close_connection(key);
    return make_error(ErrorCode::kIo, "peer " + std::string(peer) + " is closed: its uid " +
                                          std::to_string(uid) + " holds " + std::to_string(held) +
                                          " bytes, and a reply of " + std::to_string(frame.size()) +
                                          " would pass its limit");
  }
  c.out += header;
  c.out += frame;
  s.flush(key, c);
  if (c.closing) {
    s.close_connection(key);
    return make_error(ErrorCode::kIo, "peer " + std::string(peer) + " is gone");
  }
  return ok_status();
}

std::uint64_t ZmtpUnixRouter::dropped() const {
  return s_->dropped;
}
std::size_t ZmtpUnixRouter::connections() const {
  return s_->connections.size();
}
std::size_t ZmtpUnixRouter::held_by(std::uint32_t uid) const {
  return s_->budget.held(uid);
}
const std::string& ZmtpUnixRouter::path() const {
  return s_->path;
}

}  // namespace fairway::net
