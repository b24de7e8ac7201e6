// The CLI's libzmq-free client against a real libzmq ROUTER (what the coordinator binds),
// over ipc:// and tcp://, with short and long frames, and against peers that misbehave.
#include "shared/net/zmtp_request_client.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <zmq.hpp>

#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include "shared/wire/codec.h"

namespace fairway::net {
namespace {

using namespace std::chrono_literals;

std::string temp_dir() {
  char tmpl[] = "/tmp/fairway-zmtp-test.XXXXXX";
  return ::mkdtemp(tmpl);
}

// A ROUTER answering `replies` requests: a JobQuery with a reply listing its ids; the
// NodeQuery "garbage" or "two-parts" with exactly that misbehaviour.
class Router {
 public:
  Router(const std::string& bind_to, int replies) {
    socket_.set(zmq::sockopt::linger, 0);
    socket_.bind(bind_to);
    endpoint_ = socket_.get(zmq::sockopt::last_endpoint);
    thread_ = std::thread([this, replies] { serve(replies); });
  }
  ~Router() { thread_.join(); }
  const std::string& endpoint() const { return endpoint_; }

 private:
  void serve(int replies) {
    for (int i = 0; i < replies; ++i) {
      zmq::message_t identity, body;
      if (!socket_.recv(identity) || !socket_.recv(body)) return;
      const std::string text(body.to_string_view());
      socket_.send(identity, zmq::send_flags::sndmore);
      if (text == wire::encode(wire::NodeQuery{{"garbage"}})) {
        socket_.send(zmq::str_buffer("not a frame"), zmq::send_flags::none);
        continue;
      }
      if (text == wire::encode(wire::NodeQuery{{"two-parts"}})) {
        const std::string ok = wire::encode(wire::NodeQueryReply{});
        socket_.send(zmq::buffer(ok), zmq::send_flags::sndmore);
        socket_.send(zmq::buffer(ok), zmq::send_flags::none);
        continue;
      }
      auto request = wire::decode(text);
      wire::JobQueryReply r;
      if (request && std::holds_alternative<wire::JobQuery>(*request)) {
        for (JobId id : std::get<wire::JobQuery>(*request).jobs) {
          wire::JobView v;
          v.id = id;
          v.name = std::string(40, 'x');  // replies over 255 bytes take long frames
          r.jobs.push_back(v);
        }
      }
      const std::string frame = wire::encode(r);
      socket_.send(zmq::buffer(frame), zmq::send_flags::none);
    }
  }

  zmq::context_t context_{1};
  zmq::socket_t socket_{context_, zmq::socket_type::router};
  std::string endpoint_;
  std::thread thread_;
};

std::size_t ids_in_reply(ZmtpRequestClient& c, std::size_t ids) {
  wire::JobQuery q;
  for (std::size_t i = 1; i <= ids; ++i) q.jobs.push_back(JobId(i));
  auto reply = c.call(q, 3000ms);
  EXPECT_TRUE(reply) << reply.error().message;
  if (!reply) return 0;
  const auto* r = std::get_if<wire::JobQueryReply>(&*reply);
  EXPECT_NE(r, nullptr);
  return r == nullptr ? 0 : r->jobs.size();
}

TEST(ZmtpRequestClient, RoundTripsOverIpcWithShortAndLongFrames) {
  const std::string dir = temp_dir();
  {
    Router router("ipc://" + dir + "/c.sock", 3);
    auto c = ZmtpRequestClient::connect(router.endpoint());
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(ids_in_reply(*c, 1), 1u);      // short request
    EXPECT_EQ(ids_in_reply(*c, 300), 300u);  // long request and reply, same connection
    EXPECT_EQ(ids_in_reply(*c, 0), 0u);
  }
  std::filesystem::remove_all(dir);
}

TEST(ZmtpRequestClient, RoundTripsOverTcp) {
  Router router("tcp://127.0.0.1:*", 1);
  auto c = ZmtpRequestClient::connect(router.endpoint());
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(ids_in_reply(*c, 2), 2u);
}

TEST(ZmtpRequestClient, MisbehavingRepliesAreErrorsNotCrashes) {
  Router router("tcp://127.0.0.1:*", 2);
  auto c = ZmtpRequestClient::connect(router.endpoint());
  ASSERT_TRUE(c);
  auto garbage = c->call(wire::NodeQuery{{"garbage"}}, 3000ms);
  EXPECT_FALSE(garbage);
  auto two = c->call(wire::NodeQuery{{"two-parts"}}, 3000ms);
  ASSERT_FALSE(two);
  EXPECT_NE(two.error().message.find("2 parts"), std::string::npos) << two.error().message;
}

TEST(ZmtpRequestClient, NoReplyInTimeIsATimeoutNamingTheEndpoint) {
  Router router("tcp://127.0.0.1:*", 0);  // accepts, never answers
  auto c = ZmtpRequestClient::connect(router.endpoint());
  ASSERT_TRUE(c);
  auto r = c->call(wire::JobQuery{}, 200ms);
  ASSERT_FALSE(r);
  EXPECT_NE(
      r.error().message.find("no reply from the coordinator at " + router.endpoint() + " within 200 ms"),
      std::string::npos)
      << r.error().message;
}

TEST(ZmtpRequestClient, BadEndpointsAndAbsentCoordinatorsAreNamed) {
  for (const std::string bad : {"", "http://x", "ipc://", "tcp://nohostport", "tcp://:5"}) {
    auto c = ZmtpRequestClient::connect(bad);
    ASSERT_FALSE(c) << bad;
    EXPECT_NE(c.error().message.find("\"" + bad + "\""), std::string::npos) << c.error().message;
  }
  auto c = ZmtpRequestClient::connect("ipc:///nonexistent-dir/c.sock");
  ASSERT_TRUE(c);
  auto r = c->call(wire::JobQuery{}, 500ms);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("no coordinator at ipc:///nonexistent-dir/c.sock (socket missing): "
                                   "is fairway-coordinator running? set FAIRWAY_COORDINATOR"),
            std::string::npos)
      << r.error().message;

  // A socket file nobody listens on: what a coordinator killed with -9 leaves behind.
  const std::string dir = temp_dir();
  const std::string path = dir + "/stale.sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
  ::close(fd);
  auto stale = ZmtpRequestClient::connect("ipc://" + path);
  ASSERT_TRUE(stale);
  auto refused = stale->call(wire::JobQuery{}, 500ms);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("nothing listens on the socket"), std::string::npos)
      << refused.error().message;
  std::filesystem::remove_all(dir);
}

TEST(ZmtpRequestClient, APeerThatDoesNotSpeakZmtpIsRefused) {
  const std::string dir = temp_dir();
  const std::string path = dir + "/http.sock";
  const int srv = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
  ASSERT_EQ(::bind(srv, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(srv, 1), 0);
  std::thread peer([srv] {
    const int fd = ::accept(srv, nullptr, nullptr);
    const std::string text = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" + std::string(64, ' ');
    [[maybe_unused]] auto n = ::write(fd, text.data(), text.size());
    std::this_thread::sleep_for(100ms);
    ::close(fd);
  });
  auto c = ZmtpRequestClient::connect("ipc://" + path);
  ASSERT_TRUE(c);
  auto r = c->call(wire::JobQuery{}, 2000ms);
  peer.join();
  ::close(srv);
  std::filesystem::remove_all(dir);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("does not speak ZMTP 3"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace fairway::net
