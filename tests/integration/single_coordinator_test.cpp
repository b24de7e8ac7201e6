// One coordinator per state directory and per socket (issue 9): a second one refuses to
// start rather than run the same jobs twice or steal the clients' socket.
#include "tests/integration/cluster_fixture.h"

namespace fairway::integration {
namespace {

// Two coordinators on one state directory would each start the same pending jobs: the
// second refuses to start and names the first.
TEST_F(Cluster, ASecondCoordinatorOnTheSameStateDirRefusesToStart) {
  start_coordinator();
  ASSERT_TRUE(eventually([&] { return call(wire::NodeQuery{}).has_value(); }));
  const std::string other_clients = "ipc://" + dir_ + "/clients2.sock";
  Daemon second(
      {FAIRWAY_COORDINATOR_BINARY, "--config", dir_ + "/fairway.toml", "--listen-agents",
       "ipc://" + dir_ + "/agents2.sock", "--listen-clients", other_clients, "--state-dir", dir_ + "/state"},
      dir_ + "/second.log");
  int status = 0;
  ASSERT_TRUE(eventually([&] { return waitpid(second.pid(), &status, WNOHANG) == second.pid(); }));
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1);
  EXPECT_NE(read_file(dir_ + "/second.log")
                .find("is in use by fairway-coordinator pid " + std::to_string(coordinator_.pid())),
            std::string::npos)
      << read_file(dir_ + "/second.log");
  // A second one on another state dir but the first one's client socket is refused too.
  Daemon thief(
      {FAIRWAY_COORDINATOR_BINARY, "--config", dir_ + "/fairway.toml", "--listen-agents",
       "ipc://" + dir_ + "/agents3.sock", "--listen-clients", clients_ep_, "--state-dir", dir_ + "/state3"},
      dir_ + "/thief.log");
  ASSERT_TRUE(eventually([&] { return waitpid(thief.pid(), &status, WNOHANG) == thief.pid(); }));
  EXPECT_NE(read_file(dir_ + "/thief.log").find("served by another live process"), std::string::npos)
      << read_file(dir_ + "/thief.log");
  EXPECT_TRUE(call(wire::NodeQuery{}).has_value()) << "the first coordinator still serves";
}

}  // namespace
}  // namespace fairway::integration

namespace fairway::integration {
namespace {

// A coordinator without [[nodes]] remembers the nodes that registered: after a restart it
// keeps accepting jobs before any agent is back (issue 9: 5.5 % of submits were refused
// with "more than partition 'batch' can ever hold (0 cores ...)" during a kill -9 storm).
TEST_F(Cluster, ARestartedCoordinatorRemembersItsNodesBeforeTheirAgentsReturn) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  agents_.clear();  // the agent is gone (SIGKILL) and stays gone
  coordinator_.stop(SIGKILL);
  start_coordinator();
  ASSERT_TRUE(eventually([&] { return nodes().size() == 1; }));
  const auto ns = nodes();
  EXPECT_EQ(ns[0].name, "kb01");
  EXPECT_EQ(ns[0].state, "down");
  EXPECT_EQ(ns[0].reason, "not registered since the coordinator restarted");
  EXPECT_EQ(ns[0].cores, 28);
  auto id = submit(wrap("true"));
  ASSERT_TRUE(id) << "refused although the machine is known";
  EXPECT_EQ(job(*id)->state, JobState::kPending);
  // When the agent is back, the job runs.
  start_agent("kb01", kebnekaise_xml());
  auto v = wait_state(*id, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCompleted);
}

}  // namespace
}  // namespace fairway::integration
