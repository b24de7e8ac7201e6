#include "shared/net/request_client.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <zmq.hpp>

#include <filesystem>
#include <string>
#include <thread>

#include "shared/wire/codec.h"

namespace fairway::net {
namespace {

using namespace std::chrono_literals;

// A ROUTER on an ipc:// endpoint in a fresh temp dir that answers `replies` requests:
// a JobQuery with a JobQueryReply listing the asked ids, anything else with an ErrorReply,
// and the frame "garbage" or "two-parts" with exactly that misbehaviour.
class EchoServer {
 public:
  explicit EchoServer(int replies) {
    char tmpl[] = "/tmp/fairway-net-test.XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    endpoint_ = "ipc://" + dir_ + "/coordinator.sock";
    socket_.set(zmq::sockopt::linger, 0);
    socket_.bind(endpoint_);
    thread_ = std::thread([this, replies] { serve(replies); });
  }
  ~EchoServer() {
    thread_.join();
    std::filesystem::remove_all(dir_);
  }
  const std::string& endpoint() const { return endpoint_; }

 private:
  void serve(int replies) {
    for (int i = 0; i < replies; ++i) {
      zmq::message_t identity;
      zmq::message_t body;
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
      wire::Message reply = wire::ErrorReply{ErrorCode::kInvalidArgument, "unexpected request"};
      if (request && std::holds_alternative<wire::JobQuery>(*request)) {
        wire::JobQueryReply r;
        r.now = Time::from_seconds(1000);
        for (JobId id : std::get<wire::JobQuery>(*request).jobs) {
          wire::JobView v;
          v.id = id;
          r.jobs.push_back(v);
        }
        reply = r;
      }
      const std::string frame = wire::encode(reply);
      socket_.send(zmq::buffer(frame), zmq::send_flags::none);
    }
  }

  std::string dir_;
  std::string endpoint_;
  zmq::context_t context_{1};
  zmq::socket_t socket_{context_, zmq::socket_type::router};
  std::thread thread_;
};

TEST(RequestClient, RoundTripThroughRouter) {
  EchoServer server(2);
  auto client = RequestClient::connect(server.endpoint());
  ASSERT_TRUE(client.has_value()) << client.error().message;
  for (std::uint64_t id : {7u, 8u}) {
    wire::JobQuery q;
    q.jobs = {JobId(id)};
    auto reply = client->call(q, 5s);
    ASSERT_TRUE(reply.has_value()) << reply.error().message;
    const auto& r = std::get<wire::JobQueryReply>(*reply);
    EXPECT_EQ(r.now, Time::from_seconds(1000));
    ASSERT_EQ(r.jobs.size(), 1u);
    EXPECT_EQ(r.jobs[0].id, JobId(id));
  }
}

TEST(RequestClient, ErrorReplyIsReturnedAsTheMessage) {
  EchoServer server(1);
  auto client = RequestClient::connect(server.endpoint());
  ASSERT_TRUE(client.has_value());
  auto reply = client->call(wire::NodeQuery{}, 5s);
  ASSERT_TRUE(reply.has_value()) << reply.error().message;
  const auto& e = std::get<wire::ErrorReply>(*reply);
  EXPECT_EQ(e.code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(e.message, "unexpected request");
}

TEST(RequestClient, UndecodableReplyIsAnError) {
  EchoServer server(1);
  auto client = RequestClient::connect(server.endpoint());
  ASSERT_TRUE(client.has_value());
  auto reply = client->call(wire::NodeQuery{{"garbage"}}, 5s);
  ASSERT_FALSE(reply.has_value());
  EXPECT_NE(reply.error().message.find("bad reply from the coordinator at " + server.endpoint()),
            std::string::npos)
      << reply.error().message;
  EXPECT_NE(reply.error().message.find("wire: frame"), std::string::npos);
}

TEST(RequestClient, MultipartReplyIsAnError) {
  EchoServer server(1);
  auto client = RequestClient::connect(server.endpoint());
  ASSERT_TRUE(client.has_value());
  auto reply = client->call(wire::NodeQuery{{"two-parts"}}, 5s);
  ASSERT_FALSE(reply.has_value());
  EXPECT_NE(reply.error().message.find("has 2 parts"), std::string::npos) << reply.error().message;
}

TEST(RequestClient, DeadEndpointTimesOutNamingIt) {
  const std::string endpoint =
      "ipc:///tmp/fairway-net-test-nobody-listens-" + std::to_string(::getpid()) + ".sock";
  auto client = RequestClient::connect(endpoint);
  ASSERT_TRUE(client.has_value()) << client.error().message;
  const auto start = std::chrono::steady_clock::now();
  auto reply = client->call(wire::NodeQuery{}, 200ms);
  ASSERT_FALSE(reply.has_value());
  EXPECT_EQ(reply.error().code, ErrorCode::kIo);
  EXPECT_EQ(reply.error().message, "no reply from the coordinator at " + endpoint + " within 200 ms");
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  // The client stays usable: a second call times out the same way.
  auto again = client->call(wire::NodeQuery{}, 100ms);
  ASSERT_FALSE(again.has_value());
  EXPECT_NE(again.error().message.find("within 100 ms"), std::string::npos);
}

TEST(RequestClient, BadEndpointIsRejectedNamingIt) {
  auto client = RequestClient::connect("carrier-pigeon://coop");
  ASSERT_FALSE(client.has_value());
  EXPECT_NE(client.error().message.find("\"carrier-pigeon://coop\""), std::string::npos)
      << client.error().message;
  EXPECT_FALSE(RequestClient::connect("").has_value());
}

TEST(RequestClient, DescribesTimeouts) {
  EXPECT_EQ(describe_timeout(5s), "5 s");
  EXPECT_EQ(describe_timeout(250ms), "250 ms");
}

}  // namespace
}  // namespace fairway::net
