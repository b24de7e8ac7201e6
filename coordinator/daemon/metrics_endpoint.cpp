#include "coordinator/daemon/metrics_endpoint.h"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "shared/base/log.h"

namespace fairway::daemon {
namespace {

constexpr std::size_t kMaxRequestBytes = 8192;

std::string response(const std::string& status, const std::string& type, const std::string& body) {
  return "HTTP/1.1 " + status + "\r\nContent-Type: " + type +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

}  // namespace

Result<std::unique_ptr<MetricsEndpoint>> MetricsEndpoint::start(const std::string& listen,
                                                                std::chrono::milliseconds deadline) {
  const auto colon = listen.rfind(':');
  if (colon == std::string::npos)
    return invalid_argument("metrics_listen \"" + listen + "\": expected HOST:PORT");
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string port = listen.substr(colon + 1);
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0) {
    return make_error(ErrorCode::kInvalidArgument,
                      "metrics_listen \"" + listen + "\": " + ::gai_strerror(rc));
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
  return std::unique_ptr<MetricsEndpoint>(new MetricsEndpoint(fd, actual, deadline));
}

MetricsEndpoint::MetricsEndpoint(int fd, std::uint16_t port, std::chrono::milliseconds deadline)
    : fd_(fd), port_(port), deadline_(deadline), text_(std::make_shared<const std::string>()) {
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

struct MetricsEndpoint::Client {
  int fd = -1;
  std::chrono::steady_clock::time_point deadline;
  std::string in;
  std::string out;  // the answer, once the request is read
  std::size_t sent = 0;
  bool answered = false;
};

void MetricsEndpoint::serve() {
  using SteadyClock = std::chrono::steady_clock;
  // Every scraper at once, each with a deadline for its whole exchange: one that is slow or
  // silent can neither hold the others up nor keep its connection.
  std::vector<Client> clients;
  std::vector<pollfd> polls;
  while (!stop_) {
    polls.clear();
    // The listener only while there is room: beyond, connections wait in the backlog.
    polls.push_back(pollfd{clients.size() < kMaxClients ? fd_ : -1, POLLIN, 0});
    auto wait = std::chrono::milliseconds(200);  // wakes to see stop_
    const auto now = SteadyClock::now();
    for (const Client& c : clients) {
      polls.push_back(pollfd{c.fd, static_cast<short>(c.answered ? POLLOUT : POLLIN), 0});
      wait = std::min(wait, std::chrono::ceil<std::chrono::milliseconds>(
                                std::max(c.deadline - now, SteadyClock::duration{})));
    }
    if (::poll(polls.data(), polls.size(), static_cast<int>(wait.count())) < 0) continue;
    const auto after = SteadyClock::now();
    std::vector<Client> kept;
    for (std::size_t i = 0; i < clients.size(); ++i) {
      Client& c = clients[i];
      const short revents = polls[i + 1].revents;
      if ((revents == 0 || step(c)) && after < c.deadline) {
        kept.push_back(std::move(c));
      } else {
        ::close(c.fd);
      }
    }
    clients = std::move(kept);
    if ((polls[0].revents & POLLIN) != 0) {
      const int conn = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (conn >= 0) clients.push_back(Client{conn, after + deadline_, {}, {}, 0, false});
    }
  }
  for (const Client& c : clients) ::close(c.fd);
}

bool MetricsEndpoint::step(Client& c) {
  if (!c.answered) {
    char buf[1024];
    const ssize_t n = ::recv(c.fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return true;
    if (n > 0) c.in.append(buf, static_cast<std::size_t>(n));
    const bool complete = c.in.find("\r\n\r\n") != std::string::npos;
    if (n > 0 && !complete && c.in.size() < kMaxRequestBytes) return true;
    c.out = answer(c.in, complete);  // whole, cut short by the peer, or too long
    c.answered = true;
  }
  while (c.sent < c.out.size()) {
    const ssize_t n = ::send(c.fd, c.out.data() + c.sent, c.out.size() - c.sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      c.sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return true;
    return false;  // the client is gone
  }
  return false;  // all sent: done
}

std::string MetricsEndpoint::answer(const std::string& request, bool complete) {
  if (!complete) return response("400 Bad Request", "text/plain", "incomplete request\n");
  const std::string line = request.substr(0, request.find("\r\n"));
  if (!line.starts_with("GET ")) return response("405 Method Not Allowed", "text/plain", "only GET\n");
  const std::string path = line.substr(4, line.find(' ', 4) - 4);
  if (path != "/metrics" && path != "/") return response("404 Not Found", "text/plain", "try /metrics\n");
  std::shared_ptr<const std::string> text;
  {
    std::lock_guard lock(mu_);
    text = text_;
  }
  return response("200 OK", "text/plain; version=0.0.4; charset=utf-8", *text);
}

}  // namespace fairway::daemon
