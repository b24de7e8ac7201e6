// The coordinator's own ZMTP router on a Unix socket, against what connects to it: libzmq
// DEALERs (agents' and tests' clients), the CLI's plain client, and peers that lie,
// flood, stall or speak something else. Served synchronously from the test's thread.
#include "shared/net/zmtp_unix_router.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.hpp>

#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "shared/net/zmtp_frames.h"
#include "shared/net/zmtp_request_client.h"
#include "shared/wire/codec.h"

namespace fairway::net {
namespace {

using namespace std::chrono_literals;
using Clock = ZmtpUnixRouter::Clock;

class ZmtpUnixRouterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/fairway-router-test.XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    path_ = dir_ + "/c.sock";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  ZmtpUnixRouter bind(ZmtpUnixRouter::Limits limits = {}) {
    auto r = ZmtpUnixRouter::bind(path_, limits);
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    return std::move(*r);
  }

  // Serves until a message arrives or two seconds pass.
  static std::optional<Inbound> next(ZmtpUnixRouter& router) {
    const auto deadline = Clock::now() + 2s;
    while (Clock::now() < deadline) {
      router.serve(Clock::now());
      if (auto in = router.receive()) return in;
      pollfd p{router.fd(), POLLIN, 0};
      ::poll(&p, 1, 10);
    }
    return std::nullopt;
  }

  // Serves for a while, for effects other than messages (closes, writes).
  static void serve_for(ZmtpUnixRouter& router, std::chrono::milliseconds d) {
    const auto until = Clock::now() + d;
    while (Clock::now() < until) {
      router.serve(Clock::now());
      pollfd p{router.fd(), POLLIN, 0};
      ::poll(&p, 1, 5);
    }
  }

  // What a CLI is told when it sends `request` to a router that takes no connections.
  std::string refusal_told(const wire::Message& request) {
    ZmtpUnixRouter::Limits limits;
    limits.max_connections = 0;
    auto router = bind(limits);
    auto client = ZmtpRequestClient::connect("ipc://" + path_);
    EXPECT_TRUE(client);
    if (!client) return "";
    std::thread server([&router] { serve_for(router, 300ms); });
    auto reply = client->call(request, 2000ms);
    server.join();
    EXPECT_FALSE(reply);
    return reply ? std::string() : reply.error().message;
  }

  int raw_connect() const {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path_.c_str());
    EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    return fd;
  }

  static void write_all(int fd, const std::string& bytes) {
    std::size_t at = 0;
    while (at < bytes.size()) {
      const ssize_t n = ::send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
      if (n <= 0) return;
      at += static_cast<std::size_t>(n);
    }
  }

  // Everything the peer sends until it closes or `d` passes without more; `closed` says
  // whether it closed.
  static std::string read_until_quiet(int fd, std::chrono::milliseconds d, bool* closed) {
    std::string got;
    *closed = false;
    for (;;) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(d.count())) <= 0) return got;
      char buf[4096];
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) {
        *closed = true;
        return got;
      }
      got.append(buf, static_cast<std::size_t>(n));
    }
  }

  // The CLI's client still gets an answer: the router survived what came before.
  void expect_a_client_gets_through(ZmtpUnixRouter& router) const {
    auto client = ZmtpRequestClient::connect("ipc://" + path_);
    ASSERT_TRUE(client);
    std::thread server([&router] {
      if (auto in = next(router)) (void)router.send(in->peer, wire::encode(wire::JobQueryReply{}));
    });
    auto reply = client->call(wire::JobQuery{}, 2000ms);
    server.join();
    EXPECT_TRUE(reply) << reply.error().message;
  }

  std::string dir_, path_;
};

TEST_F(ZmtpUnixRouterTest, LibzmqDealerRequestsAndRepliesWithKernelCredentials) {
  auto router = bind();
  zmq::context_t ctx{1};
  zmq::socket_t dealer{ctx, zmq::socket_type::dealer};
  dealer.set(zmq::sockopt::linger, 0);
  dealer.connect("ipc://" + path_);
  // Short, long (over 255 bytes) and large (several reads and writes) frames.
  for (std::size_t size : {std::size_t{5}, std::size_t{300}, std::size_t{3} << 20}) {
    const std::string body(size, 'q');
    dealer.send(zmq::buffer(body), zmq::send_flags::none);
    auto in = next(router);
    ASSERT_TRUE(in) << size;
    EXPECT_EQ(in->frame, body);
    ASSERT_TRUE(in->credentials);
    EXPECT_EQ(in->credentials->uid, ::getuid());
    EXPECT_EQ(in->credentials->gid, ::getgid());
    EXPECT_EQ(in->credentials->pid, ::getpid());
    ASSERT_TRUE(router.send(in->peer, "re:" + body.substr(0, 1000)));
    zmq::message_t reply;
    // The large reply may need serve() to finish writing: poll the dealer in between.
    dealer.set(zmq::sockopt::rcvtimeo, 10);
    bool got = false;
    for (int i = 0; i < 200 && !got; ++i) {
      router.serve(Clock::now());
      got = static_cast<bool>(dealer.recv(reply));
    }
    ASSERT_TRUE(got) << size;
    EXPECT_EQ(reply.to_string(), "re:" + body.substr(0, 1000));
  }
  EXPECT_EQ(router.dropped(), 0u);
}

TEST_F(ZmtpUnixRouterTest, TheCliClientCallsItManyTimesOnOneConnection) {
  auto router = bind();
  std::vector<std::string> peers;
  std::thread server([&router, &peers] {
    for (int i = 0; i < 3; ++i) {
      auto in = next(router);
      if (!in) return;
      peers.push_back(in->peer);
      auto request = wire::decode(in->frame);
      wire::JobQueryReply reply;
      if (request && std::holds_alternative<wire::JobQuery>(*request)) {
        for (JobId id : std::get<wire::JobQuery>(*request).jobs) {
          wire::JobView v;
          v.id = id;
          reply.jobs.push_back(v);
        }
      }
      (void)router.send(in->peer, wire::encode(reply));
    }
  });
  auto client = ZmtpRequestClient::connect("ipc://" + path_);
  ASSERT_TRUE(client);
  for (std::size_t n : {1u, 10u, 400u}) {
    wire::JobQuery q;
    for (std::size_t i = 0; i < n; ++i) q.jobs.push_back(JobId{i + 1});
    auto reply = client->call(q, 3000ms);
    ASSERT_TRUE(reply) << reply.error().message;
    ASSERT_TRUE(std::holds_alternative<wire::JobQueryReply>(*reply));
    EXPECT_EQ(std::get<wire::JobQueryReply>(*reply).jobs.size(), n);
  }
  server.join();
  EXPECT_EQ(router.connections(), 1u);
  // The first request came with the handshake, on the first connection: no second try.
  EXPECT_EQ(peers, (std::vector<std::string>{"local:1", "local:1", "local:1"}));
}

TEST_F(ZmtpUnixRouterTest, MultipartMessagesAreDroppedAndTheConnectionGoesOn) {
  auto router = bind();
  zmq::context_t ctx{1};
  zmq::socket_t req{ctx, zmq::socket_type::dealer};
  req.set(zmq::sockopt::linger, 0);
  req.connect("ipc://" + path_);
  req.send(zmq::str_buffer(""), zmq::send_flags::sndmore);  // a REQ-style envelope
  req.send(zmq::str_buffer("body"), zmq::send_flags::none);
  req.send(zmq::str_buffer("one part"), zmq::send_flags::none);
  auto in = next(router);
  ASSERT_TRUE(in);
  EXPECT_EQ(in->frame, "one part");
  EXPECT_EQ(router.dropped(), 1u);
  EXPECT_FALSE(router.receive());
}

TEST_F(ZmtpUnixRouterTest, APeerThatDoesNotSpeakZmtpIsHungUpOnAndOthersAreServed) {
  auto router = bind();
  const int http = raw_connect();
  write_all(http, "GET / HTTP/1.1\r\nHost: x\r\n\r\n" + std::string(64, 'A'));
  serve_for(router, 100ms);
  bool closed = false;
  const std::string got = read_until_quiet(http, 500ms, &closed);
  EXPECT_TRUE(closed);
  EXPECT_EQ(got.substr(0, 1), "\xff");  // our greeting went out before theirs was read
  ::close(http);
  EXPECT_EQ(router.dropped(), 1u);
  EXPECT_EQ(router.connections(), 0u);

  expect_a_client_gets_through(router);
}

// A raw peer that completed the handshake as a DEALER; returns its fd.
int handshaken(ZmtpUnixRouterTest& t, ZmtpUnixRouter& router, int fd) {
  (void)t;
  std::string hello = zmtp::greeting() + zmtp::ready_frame("DEALER");
  std::size_t at = 0;
  while (at < hello.size())
    at += static_cast<std::size_t>(::send(fd, hello.data() + at, hello.size() - at, MSG_NOSIGNAL));
  for (int i = 0; i < 20; ++i) {
    router.serve(Clock::now());
    std::this_thread::sleep_for(2ms);
  }
  return fd;
}

TEST_F(ZmtpUnixRouterTest, AFrameOverTheLimitClosesTheConnectionBeforeItIsBuffered) {
  ZmtpUnixRouter::Limits limits;
  limits.max_frame = 1 << 20;
  auto router = bind(limits);
  const int fd = handshaken(*this, router, raw_connect());
  // A long frame announcing a terabyte, then a little of it.
  std::string head = zmtp::frame_header(0, 1000);
  head[0] = static_cast<char>(zmtp::kLong);
  head.resize(1);
  for (int shift = 56; shift >= 0; shift -= 8)
    head.push_back(static_cast<char>((std::uint64_t{1} << 40 >> shift) & 0xff));
  write_all(fd, head + std::string(1000, 'x'));
  serve_for(router, 100ms);
  bool closed = false;
  const std::string got = read_until_quiet(fd, 500ms, &closed);
  EXPECT_TRUE(closed);
  EXPECT_NE(got.find("ERROR"), std::string::npos);  // it was told why
  EXPECT_NE(got.find("a ZMTP frame of 1099511627776 bytes"), std::string::npos);
  ::close(fd);
  EXPECT_EQ(router.connections(), 0u);
  EXPECT_FALSE(router.receive());
}

TEST_F(ZmtpUnixRouterTest, APeerThatConnectsAndSaysNothingIsDroppedAfterTheHandshakeTimeout) {
  ZmtpUnixRouter::Limits limits;
  limits.handshake_timeout = 10s;
  auto router = bind(limits);
  const int silent = raw_connect();
  const int finished = handshaken(*this, router, raw_connect());
  router.serve(Clock::now());
  EXPECT_EQ(router.connections(), 2u);
  router.serve(Clock::now() + 9s);
  EXPECT_EQ(router.connections(), 2u);
  router.serve(Clock::now() + 11s);
  EXPECT_EQ(router.connections(), 1u);  // the one that finished its handshake stays
  bool closed = false;
  read_until_quiet(silent, 200ms, &closed);
  EXPECT_TRUE(closed);
  ::close(silent);
  ::close(finished);
}

TEST_F(ZmtpUnixRouterTest, ConnectionsBeyondTheLimitsAreRefused) {
  ZmtpUnixRouter::Limits limits;
  limits.max_connections = 2;
  auto router = bind(limits);
  const int a = raw_connect(), b = raw_connect(), c = raw_connect();
  serve_for(router, 50ms);
  EXPECT_EQ(router.connections(), 2u);
  bool closed = false;
  const std::string why = read_until_quiet(c, 200ms, &closed);
  EXPECT_TRUE(closed);
  EXPECT_NE(why.find("the coordinator has its maximum of 2 client connections open"), std::string::npos)
      << why;
  ::close(a);
  ::close(b);
  ::close(c);
  serve_for(router, 50ms);
  EXPECT_EQ(router.connections(), 0u);
}

TEST_F(ZmtpUnixRouterTest, TheCliIsToldWhyItsConnectionWasRefused) {
  EXPECT_NE(refusal_told(wire::JobQuery{})
                .find("refused: the coordinator has its maximum of 0 client connections open"),
            std::string::npos);
}

// The router refuses and closes without reading: when that happens before the client has
// written everything its write fails, and the reason must still be read from what is left.
TEST_F(ZmtpUnixRouterTest, TheCliIsToldWhyEvenWhenRefusedWhileItIsWriting) {
  // A request larger than the socket's buffer: the client is still writing it when the
  // router refuses, so its write fails every time rather than by chance.
  wire::SubmitRequest big;
  big.program.script = std::string(std::size_t{4} << 20, '#');
  EXPECT_NE(refusal_told(big).find("refused: the coordinator has its maximum of 0 client connections open"),
            std::string::npos);
}

TEST_F(ZmtpUnixRouterTest, OneUserCannotHoldEveryConnectionSlot) {
  ZmtpUnixRouter::Limits limits;
  limits.max_connections_per_uid = 2;
  auto router = bind(limits);
  if (::getuid() == 0) {
    std::filesystem::permissions(dir_, std::filesystem::perms(0777));
    std::filesystem::permissions(path_, std::filesystem::perms(0666));  // as the daemon opens it
  }
  // Root is not limited, so the three connections come from a child that became nobody;
  // it exits with the number of them that were hung up on.
  const pid_t child = ::fork();
  if (child == 0) {
    if (::getuid() == 0 && ::setuid(65534) != 0) ::_exit(100);
    int fds[3];
    for (int& fd : fds) fd = raw_connect();
    int refused = 0;
    for (int fd : fds) {
      bool closed = false;
      const std::string got = read_until_quiet(fd, 500ms, &closed);
      const std::string why = "uid " + std::to_string(::getuid()) + " already has 2 connections open";
      if (closed && got.find(why) != std::string::npos) ++refused;
    }
    ::_exit(refused);
  }
  int status = 0;
  while (::waitpid(child, &status, WNOHANG) == 0) serve_for(router, 10ms);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  // Root (the test) still gets in.
  if (::getuid() == 0) {
    serve_for(router, 20ms);
    const int r1 = raw_connect(), r2 = raw_connect(), r3 = raw_connect();
    serve_for(router, 50ms);
    EXPECT_EQ(router.connections(), 3u);
    ::close(r1);
    ::close(r2);
    ::close(r3);
  }
}

TEST_F(ZmtpUnixRouterTest, PingIsAnsweredWithItsContext) {
  auto router = bind();
  const int fd = handshaken(*this, router, raw_connect());
  bool closed = false;
  read_until_quiet(fd, 50ms, &closed);  // greeting and READY
  std::string ping = "\x04PING";
  ping += std::string("\x00\x0a", 2) + "ctx-42";
  write_all(fd, zmtp::frame_header(zmtp::kCommand, ping.size()) + ping);
  serve_for(router, 50ms);
  const std::string got = read_until_quiet(fd, 200ms, &closed);
  EXPECT_FALSE(closed);
  EXPECT_EQ(got, zmtp::frame_header(zmtp::kCommand, 11) + "\x04PONGctx-42");
  ::close(fd);
}

TEST_F(ZmtpUnixRouterTest, RepliesToGonePeersAreErrorsNotHangs) {
  auto router = bind();
  EXPECT_FALSE(router.send("local:999", "x"));
  EXPECT_FALSE(router.send("nonsense", "x"));
  EXPECT_FALSE(router.send("local:0", "x"));
  const int fd = handshaken(*this, router, raw_connect());
  write_all(fd, zmtp::frame_header(0, 2) + "hi");
  auto in = next(router);
  ASSERT_TRUE(in);
  ::close(fd);
  serve_for(router, 50ms);
  auto st = router.send(in->peer, "late");
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("is gone"), std::string::npos);
}

TEST_F(ZmtpUnixRouterTest, RandomBytesNeverCrashItAndAGoodClientStillGetsThrough) {
  auto router = bind();
  std::mt19937 rng(42);
  for (int round = 0; round < 60; ++round) {
    const int fd = raw_connect();
    std::string bytes;
    // Half start with a valid handshake, so the frame parser sees the noise.
    if (round % 2 == 0) bytes = zmtp::greeting() + zmtp::ready_frame("DEALER");
    const std::size_t n = rng() % 3000;
    for (std::size_t i = 0; i < n; ++i) bytes.push_back(static_cast<char>(rng() & 0xff));
    write_all(fd, bytes);
    serve_for(router, 2ms);
    ::close(fd);
    while (router.receive()) {
    }
  }
  serve_for(router, 50ms);
  EXPECT_EQ(router.connections(), 0u);
  expect_a_client_gets_through(router);
}

TEST_F(ZmtpUnixRouterTest, ItsSocketFileGoesWithItButNotASuccessorsFile) {
  {
    auto router = bind();
    EXPECT_TRUE(std::filesystem::exists(path_));
  }
  EXPECT_FALSE(std::filesystem::exists(path_));
  auto first = bind();
  std::filesystem::remove(path_);
  auto second = bind();  // a successor took the path
  { auto gone = std::move(first); }
  EXPECT_TRUE(std::filesystem::exists(path_));
}

}  // namespace
}  // namespace fairway::net
