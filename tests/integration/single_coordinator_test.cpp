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
  Daemon second({FAIRWAY_COORDINATOR_BINARY, "--config", dir_ + "/fairway.toml", "--listen-agents",
                 "ipc://" + dir_ + "/agents2.sock", "--listen-clients", other_clients, "--state-dir",
                 dir_ + "/state"},
                dir_ + "/second.log");
  int status = 0;
  ASSERT_TRUE(eventually([&] { return waitpid(second.pid(), &status, WNOHANG) == second.pid(); }));
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1);
  EXPECT_NE(read_file(dir_ + "/second.log").find("is in use by fairway-coordinator pid " +
                                                  std::to_string(coordinator_.pid())),
            std::string::npos)
      << read_file(dir_ + "/second.log");
  // A second one on another state dir but the first one's client socket is refused too.
  Daemon thief({FAIRWAY_COORDINATOR_BINARY, "--config", dir_ + "/fairway.toml", "--listen-agents",
                "ipc://" + dir_ + "/agents3.sock", "--listen-clients", clients_ep_, "--state-dir",
                dir_ + "/state3"},
               dir_ + "/thief.log");
  ASSERT_TRUE(eventually([&] { return waitpid(thief.pid(), &status, WNOHANG) == thief.pid(); }));
  EXPECT_NE(read_file(dir_ + "/thief.log").find("served by another live process"), std::string::npos)
      << read_file(dir_ + "/thief.log");
  EXPECT_TRUE(call(wire::NodeQuery{}).has_value()) << "the first coordinator still serves";
}

}  // namespace
}  // namespace fairway::integration
