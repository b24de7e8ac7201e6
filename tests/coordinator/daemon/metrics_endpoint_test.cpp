#include "coordinator/daemon/metrics_endpoint.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

namespace fairway::daemon {
namespace {

// Sends `request` raw to 127.0.0.1:port and returns everything the server answered.
std::string http_exchange(std::uint16_t port, const std::string& request, bool half_close = true) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return "connect failed";
  }
  (void)::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  if (half_close) ::shutdown(fd, SHUT_WR);
  std::string out;
  char buf[4096];
  ssize_t n = 0;
  while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0) out.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return out;
}

TEST(MetricsEndpoint, ServesTheLatestTextOnGetMetricsOnly) {
  auto e = MetricsEndpoint::start("127.0.0.1:0");
  ASSERT_TRUE(e) << e.error().message;
  const std::uint16_t port = (*e)->port();
  ASSERT_NE(port, 0);
  (*e)->publish("fairway_passes_total 1\n");
  (*e)->publish("fairway_passes_total 2\n");
  const std::string ok = http_exchange(port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(ok.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << ok;
  EXPECT_NE(ok.find("Content-Type: text/plain; version=0.0.4"), std::string::npos) << ok;
  EXPECT_TRUE(ok.ends_with("\r\n\r\nfairway_passes_total 2\n")) << ok;
  EXPECT_EQ(http_exchange(port, "GET /secret HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 404", 0), 0u);
  EXPECT_EQ(http_exchange(port, "POST /metrics HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 405", 0), 0u);
  EXPECT_EQ(http_exchange(port, "GET /metrics").rfind("HTTP/1.1 400", 0), 0u) << "a request cut short";
  // An endless header is cut off at a bound, and the endpoint keeps serving.
  EXPECT_EQ(http_exchange(port, std::string(20000, 'a')).rfind("HTTP/1.1 400", 0), 0u);
  EXPECT_EQ(http_exchange(port, "GET / HTTP/1.0\r\n\r\n").rfind("HTTP/1.1 200", 0), 0u);
}

// Issue 33 item 9: a scraper that trickles its request (a byte every 100 ms, never the
// end) used to hold the one-at-a-time endpoint; now the others are served meanwhile and
// it is hung up on at its deadline.
TEST(MetricsEndpoint, ASlowScraperNeitherBlocksOthersNorKeepsItsConnection) {
  using namespace std::chrono_literals;
  auto e = MetricsEndpoint::start("127.0.0.1:0", 1500ms);
  ASSERT_TRUE(e) << e.error().message;
  (*e)->publish("fairway_passes_total 3\n");
  const int slow = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons((*e)->port());
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(slow, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
  std::atomic<bool> slow_done{false};
  bool hung_up = false;
  std::thread trickle([&] {
    const std::string request = "GET /metrics HTTP/1.1\r\nX-Slow: " + std::string(100, 'z');
    for (std::size_t i = 0; i < request.size(); ++i) {
      if (::send(slow, &request[i], 1, MSG_NOSIGNAL) != 1) {
        hung_up = true;
        break;
      }
      pollfd p{slow, POLLIN, 0};
      if (::poll(&p, 1, 100) > 0) {
        char buf[256];
        hung_up = ::recv(slow, buf, sizeof buf, 0) <= 0;
        if (hung_up) break;
      }
    }
    slow_done = true;
  });
  std::this_thread::sleep_for(200ms);  // the slow one is being served (or waited on)
  const std::string ok = http_exchange((*e)->port(), "GET /metrics HTTP/1.1\r\n\r\n");
  const bool slow_still_trickling = !slow_done;
  trickle.join();
  ::close(slow);
  EXPECT_TRUE(ok.ends_with("\r\n\r\nfairway_passes_total 3\n")) << ok;
  EXPECT_TRUE(slow_still_trickling) << "the scrape waited for the slow client to finish";
  EXPECT_TRUE(hung_up) << "the slow client kept its connection for its whole 10 s";
}

TEST(MetricsEndpoint, BadAddressesAreNamed) {
  auto e = MetricsEndpoint::start("no-such-host.invalid:9810");
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("no-such-host.invalid:9810"), std::string::npos) << e.error().message;
  auto taken = MetricsEndpoint::start("127.0.0.1:0");
  ASSERT_TRUE(taken);
  auto again = MetricsEndpoint::start("127.0.0.1:" + std::to_string((*taken)->port()));
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().message.find("Address already in use"), std::string::npos) << again.error().message;
}

}  // namespace
}  // namespace fairway::daemon
