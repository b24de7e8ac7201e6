#include "coordinator/daemon/metrics_endpoint.h"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "shared/base/log.h"

namespace fairway::daemon {
namespace {

constexpr std::size_t kMaxRequestBytes = 8192;

void set_timeout(int fd, int option, int ms) {
  timeval tv{};
  tv.tv_sec = ms / 1000;
  tv.tv_usec = (ms % 1000) * 1000;
  ::setsockopt(fd, SOL_SOCKET, option, &tv, sizeof tv);
}

void send_all(int fd, const std::string& data) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;  // timeout or a client gone: nothing more to do for it
    sent += static_cast<std::size_t>(n);
  }
}

std::string response(const std::string& status, const std::string& type, const std::string& body) {
  return "HTTP/1.1 " + status + "\r\nContent-Type: " + type + "\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

}  // namespace

Result<std::unique_ptr<MetricsEndpoint>> MetricsEndpoint::start(const std::string& listen) {
  const auto colon = listen.rfind(':');
  if (colon == std::string::npos) return invalid_argument("metrics_listen \"" + listen + "\": expected HOST:PORT");
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string port = listen.substr(colon + 1);
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0) {
    return make_error(ErrorCode::kInvalidArgument, "metrics_listen \"" + listen + "\": " + ::gai_strerror(rc));
  }
  int fd = -1;
  int err = 0;
  for (addrinfo* a = found; a != nullptr && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 16) == 0) break;
    err = errno;
    ::close(fd);
    fd = -1;
  }
  ::freeaddrinfo(found);
  if (fd < 0) return make_error(ErrorCode::kIo, "metrics_listen \"" + listen + "\": " + std::strerror(err));
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
  const std::uint16_t actual = bound.ss_family == AF_INET6
                                   ? ntohs(reinterpret_cast<const sockaddr_in6*>(&bound)->sin6_port)
                                   : ntohs(reinterpret_cast<const sockaddr_in*>(&bound)->sin_port);
  return std::unique_ptr<MetricsEndpoint>(new MetricsEndpoint(fd, actual));
}

MetricsEndpoint::MetricsEndpoint(int fd, std::uint16_t port)
    : fd_(fd), port_(port), text_(std::make_shared<const std::string>()) {
  thread_ = std::thread([this] { serve(); });
}

MetricsEndpoint::~MetricsEndpoint() {
  stop_ = true;
  thread_.join();
  ::close(fd_);
}

void MetricsEndpoint::publish(std::string text) {
  auto fresh = std::make_shared<const std::string>(std::move(text));
  std::lock_guard lock(mu_);
  text_ = std::move(fresh);
}

void MetricsEndpoint::serve() {
  while (!stop_) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) continue;  // wakes to see stop_
    const int conn = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (conn < 0) continue;
    answer(conn);
    ::close(conn);
  }
}

void MetricsEndpoint::answer(int conn) {
  // One client at a time, each bounded in time and size: scrapes are rare and small.
  set_timeout(conn, SO_RCVTIMEO, 2000);
  set_timeout(conn, SO_SNDTIMEO, 2000);
  std::string request;
  char buf[1024];
  while (request.find("\r\n\r\n") == std::string::npos && request.size() < kMaxRequestBytes) {
    const ssize_t n = ::recv(conn, buf, sizeof buf, 0);
    if (n <= 0) break;
    request.append(buf, static_cast<std::size_t>(n));
  }
  if (request.find("\r\n\r\n") == std::string::npos) {
    send_all(conn, response("400 Bad Request", "text/plain", "incomplete request\n"));
    return;
  }
  const std::string line = request.substr(0, request.find("\r\n"));
  if (!line.starts_with("GET ")) {
    send_all(conn, response("405 Method Not Allowed", "text/plain", "only GET\n"));
    return;
  }
  const std::string path = line.substr(4, line.find(' ', 4) - 4);
  if (path != "/metrics" && path != "/") {
    send_all(conn, response("404 Not Found", "text/plain", "try /metrics\n"));
    return;
  }
  std::shared_ptr<const std::string> text;
  {
    std::lock_guard lock(mu_);
    text = text_;
  }
  send_all(conn, response("200 OK", "text/plain; version=0.0.4; charset=utf-8", *text));
}

}  // namespace fairway::daemon
