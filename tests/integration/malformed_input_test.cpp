// Garbage on every socket: the daemons answer or drop it and keep serving.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>

#include "cluster_fixture.h"
#include "shared/net/message_socket.h"
#include "shared/net/poller.h"
#include "shared/net/zap_handler.h"
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
  return {"",
          "not msgpack at all",
          std::string(1, '\xc1'),
          valid.substr(0, valid.size() / 2),
          std::string("\x94\xa3"
                      "FWY\x09\x01\x80",
                      8),
          std::string(3000, '\xff')};
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

// A CURVE client holding DIR/keys/KEY_NAME.key, calling itself `identity`.
Result<net::MessageSocket> agent_link(net::NetContext& ctx, const std::string& dir, const std::string& ep,
                                      const std::string& identity, const std::string& key_name) {
  auto own = net::read_curve_secret_key(dir + "/keys/" + key_name + ".key");
  auto server = net::read_curve_public_key(dir + "/keys/coordinator.pub");
  if (!own || !server) return make_error(ErrorCode::kNotFound, "test keys missing");
  const net::CurveClient c{*server, own->public_z85, own->secret_z85};
  return net::MessageSocket::connect_dealer(ctx, ep, identity, &c);
}

TEST_F(Cluster, GarbageOnTheAgentSocketIsDroppedAndTheCoordinatorKeepsServing) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  // A node with a valid key of its own that never registered, sending garbage.
  make_keys("kb02");
  net::NetContext ctx;
  auto raw = agent_link(ctx, dir_, agents_ep_, "kb02", "kb02");
  ASSERT_TRUE(raw);
  for (const auto& g : garbage_frames()) ASSERT_TRUE(raw->send(g));
  // A well-formed status update from a node that never registered is refused, not applied.
  ASSERT_TRUE(raw->send(wire::encode(wire::JobStatusUpdate{
      "kb02", 1, JobId(1), JobState::kCompleted, 0, std::nullopt, Time(), "", std::nullopt, std::nullopt})));
  auto refused = receive_within(*raw, 3000ms);
  ASSERT_TRUE(refused);
  EXPECT_TRUE(std::holds_alternative<wire::ErrorReply>(*wire::decode(refused->frame)));
  auto id = submit(wrap("true"));
  ASSERT_TRUE(id);
  auto v = wait_state(*id, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCompleted);
}

// Only a listed key may speak for a node, and only for its own: a plain connection, an
// unlisted key and node A's key calling itself B all register nothing.
TEST_F(Cluster, AnAgentWithoutItsNodesKeyIsRefused) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  wire::AgentRegister reg;
  reg.topology = NodeTopology::uniform("", 1, 64);
  net::NetContext ctx;
  // No CURVE at all.
  auto plain = net::MessageSocket::connect_dealer(ctx, agents_ep_, "kb07");
  ASSERT_TRUE(plain);
  reg.node = reg.topology.name = "kb07";
  ASSERT_TRUE(plain->send(wire::encode(reg)));
  // A key the coordinator does not list.
  auto stray = net::generate_curve_keypair();
  ASSERT_TRUE(stray);
  ASSERT_TRUE(net::write_curve_keypair(dir_ + "/keys", "stray", *stray));
  auto unlisted = agent_link(ctx, dir_, agents_ep_, "kb08", "stray");
  ASSERT_TRUE(unlisted);
  reg.node = reg.topology.name = "kb08";
  ASSERT_TRUE(unlisted->send(wire::encode(reg)));
  // kb01's key claiming kb09, and kb09's key claiming kb01 (whose agent is up).
  make_keys("kb09");
  auto a_as_b = agent_link(ctx, dir_, agents_ep_, "kb09", "kb01");
  ASSERT_TRUE(a_as_b);
  reg.node = reg.topology.name = "kb09";
  ASSERT_TRUE(a_as_b->send(wire::encode(reg)));
  auto b_as_a = agent_link(ctx, dir_, agents_ep_, "kb01x", "kb09");
  ASSERT_TRUE(b_as_a);
  ASSERT_TRUE(b_as_a->send(wire::encode(wire::JobStatusUpdate{
      "kb01", 1, JobId(1), JobState::kCompleted, 0, std::nullopt, Time(), "", std::nullopt, std::nullopt})));
  // The refusals are logged; no node but kb01 ever appears, and kb01 still runs jobs.
  ASSERT_TRUE(eventually([&] {
    const std::string log = read_file(dir_ + "/coordinator.log");
    return log.find("agent_refused") != std::string::npos &&
           log.find("key not in agent_keys_dir") != std::string::npos &&
           log.find("key_of=kb01") != std::string::npos;
  })) << read_file(dir_ + "/coordinator.log");
  auto id = submit(wrap("true"));
  ASSERT_TRUE(id);
  ASSERT_TRUE(wait_state(*id, [](JobState s) { return is_terminal(s); }));
  auto ns = nodes();
  ASSERT_EQ(ns.size(), 1u);
  EXPECT_EQ(ns[0].name, "kb01");
}

// A coordinator that does not hold the coordinator's secret key gets nothing from an agent:
// not its registration, so it can send no job.
TEST_F(Cluster, AFakeCoordinatorGetsNothingFromAnAgent) {
  net::NetContext ctx;
  auto zap =
      net::ZapHandler::bind(ctx, [](const net::ZapRequest&) { return std::optional<std::string>("x"); });
  ASSERT_TRUE(zap);
  auto other = net::generate_curve_keypair();
  ASSERT_TRUE(other);
  const net::CurveServer server{other->secret_z85, "agents"};
  auto fake = net::MessageSocket::bind_router(ctx, agents_ep_, &server);
  ASSERT_TRUE(fake);
  start_agent("kb01", kebnekaise_xml());
  net::Poller p;
  p.add(*fake);
  const std::size_t zap_i = p.add_handle(zap->handle());
  const auto end = std::chrono::steady_clock::now() + 3000ms;
  while (std::chrono::steady_clock::now() < end) {
    auto ready = p.wait(50ms);
    if (ready && (*ready)[zap_i]) zap->serve();
    EXPECT_FALSE(fake->receive()) << "the agent spoke to a coordinator with the wrong key";
  }
}

TEST_F(Cluster, GarbageFromTheCoordinatorLeavesTheAgentServing) {
  // The test plays the coordinator, with the coordinator's key.
  net::NetContext ctx;
  auto zap =
      net::ZapHandler::bind(ctx, [](const net::ZapRequest&) { return std::optional<std::string>("kb01"); });
  ASSERT_TRUE(zap);
  auto keys = net::read_curve_secret_key(dir_ + "/keys/coordinator.key");
  ASSERT_TRUE(keys);
  const net::CurveServer server{keys->secret_z85, "agents"};
  auto fake = net::MessageSocket::bind_router(ctx, agents_ep_, &server);
  ASSERT_TRUE(fake);
  // Answers the agent's handshake from a thread of its own: the test's loop waits on the fake.
  std::atomic<bool> stop{false};
  std::thread zap_thread([&] {
    net::Poller zp;
    zp.add_handle(zap->handle());
    while (!stop) {
      auto r = zp.wait(20ms);
      if (r && (*r)[0]) zap->serve();
    }
  });
  struct Join {
    std::atomic<bool>& s;
    std::thread& t;
    ~Join() {
      s = true;
      t.join();
    }
  } join{stop, zap_thread};
  start_agent("kb01", kebnekaise_xml());
  auto reg = receive_within(*fake, 5000ms);
  ASSERT_TRUE(reg);
  EXPECT_TRUE(reg->peer.starts_with("kb01."))
      << "the agent connects under its name and a random suffix, not " << reg->peer;
  auto decoded = wire::decode(reg->frame);
  ASSERT_TRUE(decoded);
  ASSERT_TRUE(std::holds_alternative<wire::AgentRegister>(*decoded));
  EXPECT_EQ(std::get<wire::AgentRegister>(*decoded).topology.total_cores(), 28);

  for (const auto& g : garbage_frames()) ASSERT_TRUE(fake->send(reg->peer, g));
  // A launch for cores that do not exist is refused with a failed report, not a crash.
  wire::LaunchJob bad;
  bad.job = JobId(9);
  bad.user = "root";
  bad.cores = {99};
  bad.program.argv = {"/bin/true"};
  bad.program.working_dir = dir_;
  ASSERT_TRUE(fake->send(reg->peer, wire::encode(wire::Ack{0})));
  ASSERT_TRUE(fake->send(reg->peer, wire::encode(bad)));

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
