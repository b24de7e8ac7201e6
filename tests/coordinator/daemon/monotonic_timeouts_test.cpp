// Node timeouts run on the monotonic clock (issue 14): a wall-clock step (NTP) neither
// marks a heartbeating node down nor keeps a silent one up. Synchronous, fake clocks.
#include <gtest/gtest.h>

#include "tests/support/coordinator_fixture.h"

namespace fairway::daemon {
namespace {

class MonotonicTimeouts : public test_support::CoordinatorFixture {};

TEST_F(MonotonicTimeouts, AWallClockStepDoesNotMarkNodesDownButSilenceDoes) {
  Time& wall = t_;
  Time mono = Time::from_seconds(5000);
  monotonic_ = mono;
  open("[[nodes]]\nnames = \"n1\"\nsockets = 1\ncores_per_socket = 4\n", "heartbeat_timeout = 10\n");
  ASSERT_FALSE(HasFatalFailure());
  CoordinatorService& svc = *service_;
  const auto turn = [&] {
    svc.set_monotonic(mono);
    svc.on_timer(wall);
    (void)svc.end_turn(wall);
  };
  svc.set_monotonic(mono);
  register_node("n1", 4);
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
}

}  // namespace
}  // namespace fairway::daemon
