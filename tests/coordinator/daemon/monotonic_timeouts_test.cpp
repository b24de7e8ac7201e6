// Node timeouts run on the monotonic clock (issue 14): a wall-clock step (NTP) neither
// marks a heartbeating node down nor keeps a silent one up. Synchronous, fake clocks.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "coordinator/daemon/coordinator_service.h"
#include "shared/wire/codec.h"
#include "tests/support/test_authenticators.h"

namespace fairway::daemon {
namespace {

namespace fs = std::filesystem;

TEST(MonotonicTimeouts, AWallClockStepDoesNotMarkNodesDownButSilenceDoes) {
  std::string tmpl = (fs::temp_directory_path() / "fw-mono-XXXXXX").string();
  const std::string dir = mkdtemp(tmpl.data());
  auto config = parse_config(
      "[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n"
      "[coordinator]\nheartbeat_timeout = 10\nstate_dir = \"" +
          dir + "\"\n",
      "test");
  ASSERT_TRUE(config) << config.error().message;
  Time wall = Time::from_seconds(1'700'000'000);
  Time mono = Time::from_seconds(5000);
  auto s = CoordinatorService::open(*config, wall, std::make_unique<test_support::RootOnlyAuthenticator>(),
                                    {}, mono);
  ASSERT_TRUE(s) << s.error().message;
  CoordinatorService& svc = **s;
  const auto turn = [&] {
    svc.set_monotonic(mono);
    svc.on_timer(wall);
    (void)svc.end_turn(wall);
  };
  svc.set_monotonic(mono);
  svc.on_agent_frame(
      "n1", wire::encode(wire::AgentRegister{"n1", "test", NodeTopology::uniform("n1", 1, 4), {}, ""}), wall,
      "n1");
  (void)svc.end_turn(wall);
  ASSERT_EQ(svc.nodes().find("n1")->liveness, NodeLiveness::kUp);

  // NTP steps the wall clock an hour ahead; a second passes: the node is not silent.
  wall = wall + Duration::hours(1);
  mono = mono + Duration::seconds(1);
  turn();
  EXPECT_EQ(svc.nodes().find("n1")->liveness, NodeLiveness::kUp) << svc.nodes().find("n1")->reason;

  // The wall clock steps back; 11 s pass with no heartbeat: the node is down.
  wall = wall - Duration::hours(2);
  mono = mono + Duration::seconds(11);
  turn();
  EXPECT_EQ(svc.nodes().find("n1")->liveness, NodeLiveness::kDown);
  s->reset();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fairway::daemon
