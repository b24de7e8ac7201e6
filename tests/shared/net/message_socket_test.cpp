#include "shared/net/message_socket.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "shared/net/poller.h"

#include <zmq.hpp>

namespace fairway::net {
namespace {

using namespace std::chrono_literals;

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "fw-net-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string endpoint(const std::string& name) const { return "ipc://" + path_ + "/" + name; }

 private:
  std::string path_;
};

std::optional<Inbound> receive_within(MessageSocket& s, std::chrono::milliseconds limit) {
  Poller p;
  p.add(s);
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    auto ready = p.wait(20ms);
    if (!ready) return std::nullopt;
    if ((*ready)[0]) {
      if (auto in = s.receive()) return in;
    }
  }
  return std::nullopt;
}

TEST(MessageSocket, DealerAndRouterExchangeFramesByIdentity) {
  TempDir dir;
  NetContext ctx;
  auto router = MessageSocket::bind_router(ctx, dir.endpoint("r"));
  ASSERT_TRUE(router) << router.error().message;
  auto dealer = MessageSocket::connect_dealer(ctx, dir.endpoint("r"), "node-a");
  ASSERT_TRUE(dealer);

  ASSERT_TRUE(dealer->send("hello"));
  auto in = receive_within(*router, 2s);
  ASSERT_TRUE(in);
  EXPECT_EQ(in->peer, "node-a");
  EXPECT_EQ(in->frame, "hello");

  ASSERT_TRUE(router->send("node-a", "back"));
  auto reply = receive_within(*dealer, 2s);
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->frame, "back");
  EXPECT_TRUE(reply->peer.empty());
}

// The kernel names an ipc peer: a process cannot claim another uid on a local socket.
TEST(MessageSocket, AnIpcRouterKnowsEachSendersUidFromTheKernel) {
  TempDir dir;
  NetContext ctx;
  auto router = MessageSocket::bind_router(ctx, dir.endpoint("r"));
  ASSERT_TRUE(router);
  auto dealer = MessageSocket::connect_dealer(ctx, dir.endpoint("r"), "");
  ASSERT_TRUE(dealer);
  ASSERT_TRUE(dealer->send("who"));
  auto in = receive_within(*router, 2s);
  ASSERT_TRUE(in);
  ASSERT_TRUE(in->credentials);
  EXPECT_EQ(in->credentials->uid, getuid());
  EXPECT_EQ(in->credentials->gid, getgid());
  EXPECT_EQ(in->credentials->pid, getpid());
}

TEST(MessageSocket, ATcpRouterHasNoPeerCredentials) {
  NetContext ctx;
  auto router = MessageSocket::bind_router(ctx, "tcp://127.0.0.1:*");
  ASSERT_TRUE(router);
  // The bound port: ask ZeroMQ through a DEALER connecting to what the router reports.
  void* raw = router->handle();
  char ep[256];
  std::size_t len = sizeof ep;
  ASSERT_EQ(zmq_getsockopt(raw, ZMQ_LAST_ENDPOINT, ep, &len), 0);
  auto dealer = MessageSocket::connect_dealer(ctx, ep, "");
  ASSERT_TRUE(dealer);
  ASSERT_TRUE(dealer->send("who"));
  auto in = receive_within(*router, 2s);
  ASSERT_TRUE(in);
  EXPECT_FALSE(in->credentials);
}

TEST(PeerCredentials, ParsesLibzmqIpcAddressesOnly) {
  EXPECT_EQ(parse_ipc_peer_address("localhost:1000:100:4242"), (PeerCredentials{1000, 100, 4242}));
  EXPECT_EQ(parse_ipc_peer_address("::1:0:0:7"), (PeerCredentials{0, 0, 7}));
  EXPECT_FALSE(parse_ipc_peer_address("127.0.0.1"));
  EXPECT_FALSE(parse_ipc_peer_address("localhost:x:100:4242"));
  EXPECT_FALSE(parse_ipc_peer_address("localhost:1000:100:"));
  EXPECT_FALSE(parse_ipc_peer_address("localhost:99999999999:100:1"));
  EXPECT_FALSE(parse_ipc_peer_address("localhost:1:-1:1"));
  EXPECT_FALSE(parse_ipc_peer_address(""));
}

TEST(MessageSocket, SendingToAnUnknownPeerIsAnErrorNotAHang) {
  TempDir dir;
  NetContext ctx;
  auto router = MessageSocket::bind_router(ctx, dir.endpoint("r"));
  ASSERT_TRUE(router);
  auto st = router->send("nobody", "x");
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("nobody"), std::string::npos);
}

TEST(MessageSocket, WrongShapedMessagesAreDroppedAndCounted) {
  TempDir dir;
  NetContext ctx;
  auto router = MessageSocket::bind_router(ctx, dir.endpoint("r"));
  ASSERT_TRUE(router);
  // A foreign peer (a REQ-style client) sends two parts: the router sees three.
  zmq::context_t raw_ctx;
  zmq::socket_t raw(raw_ctx, zmq::socket_type::dealer);
  raw.set(zmq::sockopt::linger, 0);
  raw.connect(dir.endpoint("r"));
  raw.send(zmq::str_buffer(""), zmq::send_flags::sndmore);
  raw.send(zmq::str_buffer("payload"), zmq::send_flags::none);
  raw.send(zmq::str_buffer("good"), zmq::send_flags::none);
  auto in = receive_within(*router, 2s);
  ASSERT_TRUE(in);
  EXPECT_EQ(in->frame, "good");
  EXPECT_EQ(router->dropped(), 1u);
}

TEST(MessageSocket, BadEndpointsAreErrorsNamingThem) {
  NetContext ctx;
  auto bad = MessageSocket::bind_router(ctx, "nonsense://x");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("nonsense://x"), std::string::npos);
  auto missing_dir = MessageSocket::bind_router(ctx, "ipc:///nonexistent-dir-fw/x.sock");
  ASSERT_FALSE(missing_dir);
}

TEST(Poller, ReportsFileDescriptorsAndTimesOut) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  Poller p;
  const std::size_t i = p.add_fd(fds[0]);
  auto idle = p.wait(10ms);
  ASSERT_TRUE(idle);
  EXPECT_FALSE((*idle)[i]);
  ASSERT_EQ(write(fds[1], "x", 1), 1);
  auto ready = p.wait(1000ms);
  ASSERT_TRUE(ready);
  EXPECT_TRUE((*ready)[i]);
  close(fds[0]);
  close(fds[1]);
}

}  // namespace
}  // namespace fairway::net
