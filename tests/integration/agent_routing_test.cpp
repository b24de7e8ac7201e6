// The agent channel's routing (issue 33, item 2): a node's jobs go to the connection its
// key registered on, never to a peer that merely calls its connection by the node's name.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cluster_fixture.h"
#include "shared/net/message_socket.h"
#include "shared/net/poller.h"
#include "shared/wire/codec.h"

namespace fairway::integration {
namespace {

// A peer holding `key_name`'s valid key that connects with routing id `routing_id` and
// calls itself `claims` (registers, then heartbeats), recording every frame it is sent.
// Its socket lives on its own thread, as each socket has one owner.
class Impostor {
 public:
  Impostor(const std::string& dir, const std::string& ep, const std::string& routing_id,
           const std::string& key_name, const std::string& claims)
      : thread_([=, this] { run(dir, ep, routing_id, key_name, claims); }) {}
  ~Impostor() {
    stop_ = true;
    thread_.join();
  }
  std::vector<std::string> received_types() {
    std::lock_guard lock(mu_);
    return received_;
  }
  bool connected() const { return sent_ > 0; }

 private:
  void run(const std::string& dir, const std::string& ep, const std::string& routing_id,
           const std::string& key_name, const std::string& claims) {
    auto own = net::read_curve_secret_key(dir + "/keys/" + key_name + ".key");
    auto server = net::read_curve_public_key(dir + "/keys/coordinator.pub");
    if (!own || !server) return;
    const net::CurveClient c{*server, own->public_z85, own->secret_z85};
    net::NetContext ctx;
    auto link = net::MessageSocket::connect_dealer(ctx, ep, routing_id, &c);
    if (!link) return;
    wire::AgentRegister reg;
    reg.node = claims;
    reg.agent_version = "impostor";
    // At least what any test node has (a registration with less drains the node).
    reg.topology = NodeTopology::uniform(claims, 4, 28, 4, "v100");
    reg.topology.memory_mb = std::int64_t{4} << 20;
    (void)link->send(wire::encode(reg));
    ++sent_;
    net::Poller p;
    p.add(*link);
    std::uint64_t seq = 0;
    auto next_beat = std::chrono::steady_clock::now();
    while (!stop_) {
      if (std::chrono::steady_clock::now() >= next_beat) {
        (void)link->send(wire::encode(wire::Heartbeat{claims, ++seq, Time()}));
        ++sent_;
        next_beat += 500ms;
      }
      auto ready = p.wait(50ms);
      if (!ready || !(*ready)[0]) continue;
      while (auto in = link->receive()) {
        auto m = wire::decode(in->frame);
        std::lock_guard lock(mu_);
        received_.push_back(m ? std::string(wire::to_string(wire::message_type(*m))) : "undecodable");
      }
    }
  }

  std::atomic<bool> stop_{false};
  std::atomic<int> sent_{0};
  std::mutex mu_;
  std::vector<std::string> received_;
  std::thread thread_;
};

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// The attack of issue 33: while n1's agent is down, a peer with n2's valid key connects
// with routing id "n1". A job for n1 never reaches it; n1's agent, started again, gets
// the job and runs it, with nothing else restarted.
TEST_F(Cluster, AnImpostorCallingItselfByANodesNameNeverGetsThatNodesJobs) {
  // n1 counts as up for 12 s after its agent is gone: the attack's window, wide enough
  // for a loaded machine.
  std::string config = read_file(dir_ + "/fairway.toml");
  config.replace(config.find("heartbeat_timeout = 5"), 21, "heartbeat_timeout = 12");
  std::ofstream(dir_ + "/fairway.toml") << config;
  start_coordinator();
  start_agent("n1", kebnekaise_xml());
  start_agent("n2", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(2));
  agents_[0].stop(SIGKILL);  // n1's agent is gone; the coordinator still counts n1 up

  Impostor impostor(dir_, agents_ep_, "n1", "n2", "n1");
  ASSERT_TRUE(eventually([&] {
    const std::string log = read_file(dir_ + "/coordinator.log");
    return impostor.connected() && log.find("node=n1 key_of=n2") != std::string::npos;
  })) << read_file(dir_ + "/coordinator.log");

  auto req = wrap("echo \"$SLURMD_NODENAME\" > " + dir_ + "/ran-on");
  req.spec.only_nodes = {"n1"};
  auto id = submit(req);
  ASSERT_TRUE(id);
  // Its launch is made for n1 while n1 still counts as up: it must not reach the impostor.
  ASSERT_TRUE(eventually([&] {
    auto v = job(*id);
    return v && v->state != JobState::kPending;
  }));
  std::this_thread::sleep_for(1500ms);  // the launch, had it been misrouted, has arrived
  EXPECT_FALSE(has(impostor.received_types(), "LaunchJob")) << "n1's job was sent to a holder of n2's key";

  // n1's own agent comes back: it gets the job (requeued from its lost launch) and runs it.
  start_agent("n1", kebnekaise_xml());
  auto v = wait_state(
      *id, [](JobState s) { return is_terminal(s); }, 45000ms);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCompleted) << read_file(dir_ + "/coordinator.log");
  EXPECT_EQ(read_file(dir_ + "/ran-on"), "n1\n");
  for (const std::string& t : impostor.received_types()) {
    EXPECT_NE(t, "LaunchJob");
    EXPECT_NE(t, "SignalJob");
  }
}

// A second connection of the same key replaces the first: the newer agent gets the node's
// frames, the older connection hears it was closed and is served no more.
TEST_F(Cluster, ASecondConnectionOfANodesKeyReplacesTheFirst) {
  start_coordinator();
  start_agent("n1", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  // Another process with n1's own key (a stale agent) registers as n1 on a new connection.
  Impostor second(dir_, agents_ep_, "n1-second", "n1", "n1");
  ASSERT_TRUE(eventually([&] {
    return read_file(dir_ + "/coordinator.log").find("agent_connection_replaced") != std::string::npos;
  })) << read_file(dir_ + "/coordinator.log");
  // The first agent is told, and its frames are refused from then on.
  ASSERT_TRUE(eventually([&] {
    return read_file(dir_ + "/agent-n1.log").find("this one is closed") != std::string::npos;
  })) << read_file(dir_ + "/agent-n1.log");
  ASSERT_TRUE(eventually([&] {
    return read_file(dir_ + "/coordinator.log")
               .find("a newer connection of this node's key replaced this one") != std::string::npos;
  }));
  // n1's job goes to the newer connection.
  auto id = submit(wrap("true"));
  ASSERT_TRUE(id);
  ASSERT_TRUE(eventually([&] { return has(second.received_types(), "LaunchJob"); }))
      << read_file(dir_ + "/coordinator.log");
}

}  // namespace
}  // namespace fairway::integration
