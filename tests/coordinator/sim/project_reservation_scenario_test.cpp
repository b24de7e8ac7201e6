// A Titan project reservation through the simulator: the project's --reservation jobs run
// on its nodes inside its window, others go elsewhere or after it, the independent check
// accepts the schedule, and an unused reservation is given back and counted.
#include <gtest/gtest.h>

#include <vector>

#include "coordinator/sim/schedule_validator.h"
#include "coordinator/sim/simulation.h"
#include "tests/coordinator/sim/jsonl_scenario.h"

namespace fairway::sim {
namespace {

const scenario::Scenario kScenario{scenario::easy_config(scenario::kTwoNodes, R"(
[[reservations]]
name = "climate-run"
start = 1000
duration = 3600
nodes = "n2"
account = "climate"
cancel_below_use = 0.5
cancel_after = "10:00"
)"),
                                   true};

using scenario::runs_of;

TEST(ProjectReservationScenario, ItsJobsRunInItAndOthersAroundIt) {
  auto r = kScenario.run(
      R"({"id":1,"submit":0,"user":"ann","account":"climate","reservation":"climate-run","cores":4,"time_limit":1800,"runtime":1500}
{"id":2,"submit":0,"user":"bob","cores":8,"time_limit":1800,"runtime":600}
{"id":3,"submit":10,"user":"bob","cores":4,"time_limit":1800,"runtime":600}
)");
  const auto st = kScenario.validate(r, r.result.records);
  EXPECT_TRUE(st) << st.error().message;
  const auto member = runs_of(r, 1);
  ASSERT_EQ(member.size(), 1u);
  EXPECT_EQ(member[0].start.seconds(), 1000);  // it waited for its reservation
  ASSERT_EQ(member[0].allocation.node_count(), 1);
  EXPECT_EQ(member[0].allocation.expand().nodes[0].node, NodeIndex(1));  // n2
  // The whole-machine job would run into the window: it waits for the reservation, which
  // ends early: idle for its 10 minutes of patience once job 1 is done (1000 + 1500 + 600).
  const auto big = runs_of(r, 2);
  ASSERT_EQ(big.size(), 1u);
  EXPECT_EQ(big[0].start.seconds(), 3100);
  // A half-machine job fits beside the reservation on n1.
  const auto small = runs_of(r, 3);
  ASSERT_EQ(small.size(), 1u);
  EXPECT_EQ(small[0].start.seconds(), 10);
  ASSERT_EQ(r.result.reservations_cancelled.size(), 1u);
  EXPECT_EQ(r.result.reservations_cancelled[0].at.seconds(), 3100);
}

TEST(ProjectReservationScenario, AnUnusedReservationIsGivenBackAfterItsPatience) {
  auto r = kScenario.run(R"({"id":1,"submit":0,"user":"bob","cores":8,"time_limit":7200,"runtime":600}
)");
  ASSERT_EQ(r.result.reservations_cancelled.size(), 1u);
  EXPECT_EQ(r.result.reservations_cancelled[0].name, "climate-run");
  EXPECT_EQ(r.result.reservations_cancelled[0].at.seconds(), 1000 + 600);
  const auto big = runs_of(r, 1);
  ASSERT_EQ(big.size(), 1u);
  EXPECT_EQ(big[0].start.seconds(), 1600);  // at the cancellation, not at the window's end
  const auto st = kScenario.validate(r, r.result.records);
  EXPECT_TRUE(st) << st.error().message;
}

}  // namespace
}  // namespace fairway::sim
