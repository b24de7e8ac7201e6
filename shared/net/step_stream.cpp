#include "shared/net/step_stream.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

#include <charconv>

#include "shared/base/try.h"
#include "shared/net/host_resolver.h"

namespace fairway::net {
namespace {

std::string numeric_host(const sockaddr_storage& a) {
  char text[INET6_ADDRSTRLEN] = {};
  if (a.ss_family == AF_INET) {
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(a).sin_addr, text, sizeof text);
    return text;
  }
  ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(a).sin6_addr, text, sizeof text);
  return std::string("[") + text + "]";
}

std::uint16_t port_of(const sockaddr_storage& a) {
  return ntohs(a.ss_family == AF_INET ? reinterpret_cast<const sockaddr_in&>(a).sin_port
                                      : reinterpret_cast<const sockaddr_in6&>(a).sin6_port);
}

}  // namespace

Result<std::pair<std::string, std::uint16_t>> parse_tcp_address(std::string_view address) {
  auto bad = [&](const std::string& why) {
    return std::unexpected(step_stream_error("address '" + std::string(address) + "': " + why));
  };
  if (!address.starts_with("tcp://")) return bad("expected tcp://HOST:PORT");
  const std::string_view rest = address.substr(6);
  const std::size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return bad("expected tcp://HOST:PORT");
  std::string host(rest.substr(0, colon));
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string_view digits = rest.substr(colon + 1);
  unsigned port = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
  if (ec != std::errc() || end != digits.data() + digits.size() || port == 0 || port > 65535) {
    return bad("port must be 1-65535");
  }
  return std::pair{host, static_cast<std::uint16_t>(port)};
}

Result<int> connect_step_stream(std::string_view address, int timeout_ms) {
  FAIRWAY_TRY_ASSIGN(parts, parse_tcp_address(address));
  FAIRWAY_TRY_ASSIGN(resolved, resolve_host(parts.first, parts.second));
  std::string last_error = "no address";
  for (const ResolvedAddress& a : resolved) {
    const int fd = ::socket(a.family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
      last_error = std::strerror(errno);
      continue;
    }
    int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&a.address), a.length);
    if (rc != 0 && errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      rc = ::poll(&p, 1, timeout_ms) == 1 ? 0 : -1;
      int err = rc == 0 ? 0 : ETIMEDOUT;
      socklen_t len = sizeof err;
      if (rc == 0 && ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
      errno = err;
      rc = err == 0 ? 0 : -1;
    }
    if (rc == 0) {
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
      const int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      return fd;
    }
    last_error = std::strerror(errno);
    ::close(fd);
  }
  return make_error(ErrorCode::kUnavailable, "cannot connect to " + std::string(address) + ": " + last_error);
}

Result<std::pair<int, std::string>> listen_step_stream(const std::string& host) {
  auto resolved = resolve_host(host, 0, ResolverSources{"/dev/null", false});
  if (!resolved || resolved->empty()) {
    return make_error(ErrorCode::kInvalidArgument, "step stream: '" + host + "' is not a numeric address");
  }
  const ResolvedAddress& a = resolved->front();
  const int fd = ::socket(a.family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return make_error(ErrorCode::kIo, std::string("socket: ") + std::strerror(errno));
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&a.address), a.length) != 0 || ::listen(fd, 128) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len) != 0) {
    const int err = errno;
    ::close(fd);
    return make_error(ErrorCode::kIo, "listen on " + host + ": " + std::strerror(err));
  }
  return std::pair{fd, "tcp://" + numeric_host(bound) + ":" + std::to_string(port_of(bound))};
}

Result<std::string> local_address_towards(const std::string& host) {
  auto resolved = resolve_host(host, 9);
  if (!resolved || resolved->empty()) {
    return std::unexpected(resolved ? Error{ErrorCode::kNotFound, "no address for " + host}
                                    : resolved.error());
  }
  const ResolvedAddress& a = resolved->front();
  const int fd = ::socket(a.family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return make_error(ErrorCode::kIo, std::string("socket: ") + std::strerror(errno));
  sockaddr_storage local{};
  socklen_t len = sizeof local;
  const bool ok = ::connect(fd, reinterpret_cast<const sockaddr*>(&a.address), a.length) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) == 0;
  const int err = errno;
  ::close(fd);
  if (!ok) return make_error(ErrorCode::kIo, "no route to " + host + ": " + std::strerror(err));
  return numeric_host(local);
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK) n = ::write(fd, bytes.data(), bytes.size());  // a pipe, a terminal
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace fairway::net
