#include "shared/net/zmtp_request_client.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <cerrno>
#include <charconv>
#include <cstring>

#include <string_view>
#include <utility>

#include "shared/base/duration_format.h"
#include "shared/net/host_resolver.h"
#include "shared/net/zmtp_frames.h"
#include "shared/wire/codec.h"

namespace fairway::net {
namespace {

// Where a user whose CLI finds no coordinator can point it.
constexpr const char* kWhereToPoint =
    "set FAIRWAY_COORDINATOR or --coordinator to its client endpoint ([coordinator] listen_clients)";

using Clock = std::chrono::steady_clock;

using zmtp::kCommand;
using zmtp::kMore;
// Replies are small; a peer announcing more than this is not our coordinator.
constexpr std::uint64_t kMaxFrame = 256ull << 20;

int remaining_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(left);
}

// Waits for `events` on fd until the deadline: 1 ready, 0 timed out, -1 error (errno).
int wait_for(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int r = ::poll(&p, 1, remaining_ms(deadline));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return r;
    return 1;
  }
}

enum class IoResult { kOk, kTimeout, kClosed, kError };

IoResult send_all(int fd, const char* data, std::size_t size, Clock::time_point deadline) {
  std::size_t sent = 0;
  while (sent < size) {
    const ssize_t n = ::send(fd, data + sent, size - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      const int w = wait_for(fd, POLLOUT, deadline);
      if (w == 0) return IoResult::kTimeout;
      if (w < 0) return IoResult::kError;
      continue;
    }
    return n == 0 ? IoResult::kClosed : IoResult::kError;
  }
  return IoResult::kOk;
}

// Reads more of what the peer sent into `in`, in large chunks (a reply costs one or two
// recv calls, not one per field), until at least `want` unparsed bytes are there.
IoResult fill(int fd, std::string& in, std::size_t& at, std::size_t want, Clock::time_point deadline) {
  if (at > 0 && at == in.size()) {
    in.clear();
    at = 0;
  }
  while (in.size() - at < want) {
    char buf[65536];
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n > 0) {
      in.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) return IoResult::kClosed;
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      const int w = wait_for(fd, POLLIN, deadline);
      if (w == 0) return IoResult::kTimeout;
      if (w < 0) return IoResult::kError;
      continue;
    }
    return IoResult::kError;
  }
  return IoResult::kOk;
}

struct Frame {
  std::uint8_t flags = 0;
  std::string body;
};

IoResult recv_frame(int fd, std::string& in, std::size_t& at, Frame& f, Clock::time_point deadline,
                    std::string& why) {
  for (;;) {
    const zmtp::ParsedFrame p = zmtp::parse_frame(std::string_view(in).substr(at), kMaxFrame);
    if (p.kind == zmtp::ParsedFrame::Kind::kBad) {
      why = p.why;
      return IoResult::kError;
    }
    if (p.kind == zmtp::ParsedFrame::Kind::kFrame) {
      f.flags = p.flags;
      f.body.assign(p.body);
      at += p.consumed;
      return IoResult::kOk;
    }
    if (auto r = fill(fd, in, at, in.size() - at + 1, deadline); r != IoResult::kOk) return r;
  }
}

}  // namespace

ZmtpRequestClient::ZmtpRequestClient(ZmtpRequestClient&& o) noexcept
    : endpoint_(std::move(o.endpoint_)),
      fd_(std::exchange(o.fd_, -1)),
      in_(std::move(o.in_)),
      in_at_(std::exchange(o.in_at_, 0)) {}

ZmtpRequestClient& ZmtpRequestClient::operator=(ZmtpRequestClient&& o) noexcept {
  if (this != &o) {
    close_socket();
    endpoint_ = std::move(o.endpoint_);
    fd_ = std::exchange(o.fd_, -1);
    in_ = std::move(o.in_);
    in_at_ = std::exchange(o.in_at_, 0);
  }
  return *this;
}

ZmtpRequestClient::~ZmtpRequestClient() {
  close_socket();
}

void ZmtpRequestClient::close_socket() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  in_.clear();
  in_at_ = 0;
}

Result<ZmtpRequestClient> ZmtpRequestClient::connect(const std::string& endpoint) {
  const auto bad = [&](const std::string& why) {
    return invalid_argument("cannot connect to the coordinator at \"" + endpoint + "\": " + why);
  };
  if (endpoint.starts_with("ipc://")) {
    const std::string path = endpoint.substr(6);
    if (path.empty()) return bad("no socket path after ipc://");
    if (path.size() >= sizeof(sockaddr_un{}.sun_path)) return bad("the socket path is too long");
  } else if (endpoint.starts_with("tcp://")) {
    const std::string rest = endpoint.substr(6);
    const auto colon = rest.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == rest.size())
      return bad("expected tcp://HOST:PORT");
  } else {
    return bad("expected ipc://PATH or tcp://HOST:PORT");
  }
  return ZmtpRequestClient(endpoint);
}

Status ZmtpRequestClient::open(Clock::time_point deadline, std::string_view first_frame, bool* hung_up) {
  const auto fail = [&](const std::string& why) {
    close_socket();
    return make_error(ErrorCode::kIo, "cannot reach the coordinator at " + endpoint_ + ": " + why);
  };
  int fd = -1;
  if (endpoint_.starts_with("ipc://")) {
    const std::string path = endpoint_.substr(6);
    fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return fail(std::string("socket: ") + std::strerror(errno));
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == ENOENT) {
        close_socket();
        return make_error(ErrorCode::kIo, "no coordinator at " + endpoint_ +
                                              " (socket missing): is fairway-coordinator running? " +
                                              kWhereToPoint);
      }
      if (err == ECONNREFUSED) {
        return fail("nothing listens on the socket (a coordinator that exited leaves it behind): " +
                    std::string(kWhereToPoint));
      }
      return fail(std::strerror(err));
    }
  } else {
    const std::string rest = endpoint_.substr(6);
    const auto colon = rest.rfind(':');
    const std::string host = rest.substr(0, colon);
    const std::string port_text = rest.substr(colon + 1);
    std::uint16_t port = 0;
    const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || port == 0) {
      return fail("the port \"" + port_text + "\" is not a number from 1 to 65535");
    }
    auto found = resolve_host(host, port);
    if (!found) return fail(found.error().message);
    int err = ECONNREFUSED;
    for (const ResolvedAddress& a : *found) {
      fd = ::socket(a.family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
      if (fd < 0) continue;
      if (::connect(fd, reinterpret_cast<const sockaddr*>(&a.address), a.length) == 0) break;
      err = errno;
      if (err == EINPROGRESS && wait_for(fd, POLLOUT, deadline) == 1) {
        int so_error = 0;
        socklen_t len = sizeof so_error;
        ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len);
        if (so_error == 0) break;
        err = so_error;
      } else if (err == EINPROGRESS) {
        err = ETIMEDOUT;
      }
      ::close(fd);
      fd = -1;
    }
    if (fd < 0 && err == ECONNREFUSED) {
      return fail("connection refused: is fairway-coordinator running and listening there? " +
                  std::string(kWhereToPoint));
    }
    if (fd < 0) return fail(std::strerror(err));
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  fd_ = fd;

  // Greeting: signature, version 3.1, the NULL mechanism, as a client; then READY.
  std::string out = zmtp::greeting() + zmtp::ready_frame("DEALER");
  out += first_frame;
  // A router that refuses us writes its reason and closes without reading, so our write
  // can fail while the reason already waits in our buffer: read it before giving up.
  const bool sent = send_all(fd_, out.data(), out.size(), deadline) == IoResult::kOk;
  constexpr const char* kBroke = "the connection broke during the handshake";
  if (auto r = fill(fd_, in_, in_at_, zmtp::kGreetingSize, deadline); r != IoResult::kOk) {
    if (!sent) return fail(kBroke);
    if (hung_up != nullptr) *hung_up = r == IoResult::kClosed;
    return fail(r == IoResult::kTimeout ? "no ZMTP greeting in time"
                                        : "the connection closed during the handshake");
  }
  if (std::string why = zmtp::check_greeting(std::string_view(in_).substr(in_at_, zmtp::kGreetingSize));
      !why.empty()) {
    return fail("the peer does not speak ZMTP 3 with the NULL mechanism: " + why);
  }
  in_at_ += zmtp::kGreetingSize;
  Frame f;
  std::string why;
  if (auto r = recv_frame(fd_, in_, in_at_, f, deadline, why); r != IoResult::kOk) {
    if (!sent) return fail(kBroke);
    if (hung_up != nullptr) *hung_up = r == IoResult::kClosed;
    return fail(why.empty() ? "no READY from the peer" : why);
  }
  if ((f.flags & kCommand) == 0) return fail(sent ? "the peer sent data before READY" : kBroke);
  const std::string name(zmtp::command_name(f.body));
  if (name == "ERROR") return fail("refused: " + zmtp::error_reason(f.body));
  if (!sent) return fail(kBroke);
  if (name != "READY") return fail("expected READY, got '" + name + "'");
  return ok_status();
}

Result<wire::Message> ZmtpRequestClient::call(const wire::Message& request,
                                              std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  const auto lost = [&](IoResult r, const std::string& why = {}) -> std::unexpected<Error> {
    close_socket();  // a late reply must not answer a later call
    if (r == IoResult::kTimeout) {
      return make_error(ErrorCode::kIo, "no reply from the coordinator at " + endpoint_ + " within " +
                                            describe_timeout(timeout));
    }
    return make_error(ErrorCode::kIo, "the connection to the coordinator at " + endpoint_ + " " +
                                          (why.empty() ? std::string("closed before its reply") : why));
  };
  const std::string body = wire::encode(request);
  const std::string out = zmtp::frame_header(0, body.size()) + body;
  if (fd_ < 0) {
    // On ipc:// the request rides with the handshake: the coordinator's own router there
    // reads greeting, READY and request from one write, so a one-shot CLI command costs
    // one round trip and one wake-up of the coordinator's loop instead of two. libzmq's
    // ROUTER (tcp://, or an older coordinator) hangs up on a request sent that early,
    // during the handshake and so before reading it: then the handshake is done again
    // the usual way.
    bool with_request = endpoint_.starts_with("ipc://");
    bool hung_up = false;
    Status opened = open(deadline, with_request ? std::string_view(out) : std::string_view(), &hung_up);
    if (!opened && with_request && hung_up) {
      with_request = false;
      opened = open(deadline, {});
    }
    if (!opened) return std::unexpected(opened.error());
    if (!with_request) {
      if (auto r = send_all(fd_, out.data(), out.size(), deadline); r != IoResult::kOk) return lost(r);
    }
  } else if (auto r = send_all(fd_, out.data(), out.size(), deadline); r != IoResult::kOk) {
    return lost(r);
  }
  std::string reply;
  std::size_t parts = 0;
  for (;;) {
    Frame f;
    std::string why;
    if (auto r = recv_frame(fd_, in_, in_at_, f, deadline, why); r != IoResult::kOk) return lost(r, why);
    if ((f.flags & kCommand) != 0) {
      // PING (ZMTP 3.1 heartbeats) and the like: not an answer.
      if (zmtp::command_name(f.body) == "ERROR") return lost(IoResult::kError, "was refused by the peer");
      continue;
    }
    if (parts++ == 0) reply = std::move(f.body);
    if ((f.flags & kMore) == 0) break;
  }
  if (parts > 1) {
    close_socket();
    return make_error(ErrorCode::kIo, "reply from the coordinator at " + endpoint_ + " has " +
                                          std::to_string(parts) + " parts, expected 1");
  }
  auto decoded = wire::decode(reply);
  if (!decoded) {
    return std::unexpected(decoded.error().with_context("reply from the coordinator at " + endpoint_));
  }
  return decoded;
}

}  // namespace fairway::net
