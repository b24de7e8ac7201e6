// Garbage on every socket: the daemons answer or drop it and keep serving.
#include <gtest/gtest.h>

#include <string>

#include "cluster_fixture.h"
#include "shared/net/message_socket.h"
#include "shared/net/poller.h"
#include "shared/wire/codec.h"

#include <pwd.h>

namespace fairway::integration {
namespace {

std::optional<net::Inbound> receive_within(net::MessageSocket& s, std::chrono::milliseconds limit) {
  net::Poller p;
  p.add(s);
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    auto ready = p.wait(50ms);
    if (ready && (*ready)[0]) {
      if (auto in = s.receive()) return in;
    }
  }
  return std::nullopt;
}

std::vector<std::string> garbage_frames() {
  std::string valid = wire::encode(wire::Heartbeat{"x", 1, Time::from_seconds(5)});
  return {"", "not msgpack at all", std::string(1, '\xc1'), valid.substr(0, valid.size() / 2),
          std::string("\x94\xa3" "FWY\x09\x01\x80", 8), std::string(3000, '\xff')};
}

TEST_F(Cluster, GarbageOnTheClientSocketGetsAnErrorAndTheCoordinatorKeepsServing) {
  start_coordinator();
  net::NetContext ctx;
  auto raw = net::MessageSocket::connect_dealer(ctx, clients_ep_, "fuzzer");
  ASSERT_TRUE(raw);
  for (const auto& g : garbage_frames()) {
    ASSERT_TRUE(raw->send(g));
    auto reply = receive_within(*raw, 3000ms);
    ASSERT_TRUE(reply) << "no answer to a garbage frame of " << g.size() << " bytes";
    auto decoded = wire::decode(reply->frame);
    ASSERT_TRUE(decoded);
    EXPECT_TRUE(std::holds_alternative<wire::ErrorReply>(*decoded));
  }
  // An agent-only message on the client socket is refused too.
  ASSERT_TRUE(raw->send(wire::encode(wire::Heartbeat{"x", 1, Time()})));
  auto refused = receive_within(*raw, 3000ms);
  ASSERT_TRUE(refused);
  EXPECT_TRUE(std::holds_alternative<wire::ErrorReply>(*wire::decode(refused->frame)));
  auto q = call(wire::JobQuery{});
  ASSERT_TRUE(q) << q.error().message;
  EXPECT_TRUE(std::holds_alternative<wire::JobQueryReply>(*q));
}

TEST_F(Cluster, GarbageOnTheAgentSocketIsDroppedAndTheCoordinatorKeepsServing) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  net::NetContext ctx;
  auto raw = net::MessageSocket::connect_dealer(ctx, agents_ep_, "kb01-impostor");
  ASSERT_TRUE(raw);
  for (const auto& g : garbage_frames()) ASSERT_TRUE(raw->send(g));
  // A well-formed status update from a node that never registered is refused, not applied.
  ASSERT_TRUE(raw->send(wire::encode(wire::JobStatusUpdate{"kb01-impostor", 1, JobId(1), JobState::kCompleted, 0, std::nullopt, Time()})));
  auto refused = receive_within(*raw, 3000ms);
  ASSERT_TRUE(refused);
  EXPECT_TRUE(std::holds_alternative<wire::ErrorReply>(*wire::decode(refused->frame)));
  auto id = submit(wrap("true"));
  ASSERT_TRUE(id);
  auto v = wait_state(*id, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCompleted);
}

TEST_F(Cluster, GarbageFromTheCoordinatorLeavesTheAgentServing) {
  // The test plays the coordinator.
  net::NetContext ctx;
  auto fake = net::MessageSocket::bind_router(ctx, agents_ep_);
  ASSERT_TRUE(fake);
  start_agent("kb01", kebnekaise_xml());
  auto reg = receive_within(*fake, 5000ms);
  ASSERT_TRUE(reg);
  EXPECT_EQ(reg->peer, "kb01");
  auto decoded = wire::decode(reg->frame);
  ASSERT_TRUE(decoded);
  ASSERT_TRUE(std::holds_alternative<wire::AgentRegister>(*decoded));
  EXPECT_EQ(std::get<wire::AgentRegister>(*decoded).topology.total_cores(), 28);

  for (const auto& g : garbage_frames()) ASSERT_TRUE(fake->send("kb01", g));
  // A launch for cores that do not exist is refused with a failed report, not a crash.
  wire::LaunchJob bad;
  bad.job = JobId(9);
  bad.user = "root";
  bad.cores = {99};
  bad.program.argv = {"/bin/true"};
  bad.program.working_dir = dir_;
  ASSERT_TRUE(fake->send("kb01", wire::encode(wire::Ack{0})));
  ASSERT_TRUE(fake->send("kb01", wire::encode(bad)));

  bool heartbeat = false, failed_report = false;
  const auto end = std::chrono::steady_clock::now() + 6000ms;
  while (std::chrono::steady_clock::now() < end && !(heartbeat && failed_report)) {
    auto in = receive_within(*fake, 500ms);
    if (!in) continue;
    auto m = wire::decode(in->frame);
    ASSERT_TRUE(m);
    if (std::holds_alternative<wire::Heartbeat>(*m)) heartbeat = true;
    if (auto* u = std::get_if<wire::JobStatusUpdate>(&*m)) {
      if (u->job == JobId(9) && u->state == JobState::kFailed) failed_report = true;
    }
  }
  EXPECT_TRUE(heartbeat) << "the agent stopped heartbeating after garbage";
  EXPECT_TRUE(failed_report) << "the impossible launch was not reported failed";
}

}  // namespace
}  // namespace fairway::integration

namespace fairway::integration {
namespace {

TEST_F(Cluster, AnOrdinaryUserReachesTheCoordinatorThroughTheClientSocket) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to become another user";
  start_coordinator();
  ASSERT_TRUE(eventually([&] { return call(wire::NodeQuery{}).has_value(); }));
  const pid_t pid = fork();
  if (pid == 0) {
    const passwd* nobody = getpwnam("nobody");
    if (nobody == nullptr || setgid(nobody->pw_gid) != 0 || setuid(nobody->pw_uid) != 0) _exit(90);
    const int null = ::open("/dev/null", O_WRONLY);
    dup2(null, 1);
    execl(FAIRWAY_CLI_BINARY, "fairway", "--coordinator", clients_ep_.c_str(), "nodes",
          static_cast<char*>(nullptr));
    _exit(91);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "fairway nodes as nobody";
}

}  // namespace
}  // namespace fairway::integration
