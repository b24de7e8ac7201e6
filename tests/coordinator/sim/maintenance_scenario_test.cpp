// A maintenance window through the simulator: a killable job started into it is killed at
// its start, requeued, and runs again in full after it; the validator accepts the two runs
// and the summary counts the preemption and the requeue.
#include <gtest/gtest.h>

#include <vector>

#include "coordinator/sim/metrics.h"
#include "coordinator/sim/schedule_validator.h"
#include "coordinator/sim/simulation.h"
#include "shared/config/config.h"
#include "tests/coordinator/sim/jsonl_scenario.h"

namespace fairway::sim {
namespace {

const scenario::Scenario kScenario{scenario::easy_config(scenario::kTwoNodes, R"(
[[partitions]]
name = "batch"
default = true

[[partitions]]
name = "scavenger"
killable = true

[[reservations]]
name = "outage"
start = 1000
duration = 500
nodes = "ALL"
flags = ["maintenance"]
)"),
                                   true};

using SimRun = scenario::JsonlRun;
using scenario::runs_of;

TEST(MaintenanceScenario, KillableJobIsRequeuedAndBatchJobWaitsForTheWindowToEnd) {
  SimRun r = kScenario.run(
      R"({"id":1,"submit":0,"user":"ann","partition":"scavenger","cores":8,"time_limit":3000,"runtime":2000}
{"id":2,"submit":10,"user":"bob","cores":4,"time_limit":1200,"runtime":100}
)");
  const auto st = kScenario.validate(r, r.result.records);
  EXPECT_TRUE(st) << st.error().message;

  const auto killable = runs_of(r, 1);
  ASSERT_EQ(killable.size(), 2u);
  EXPECT_TRUE(killable[0].preempted);
  EXPECT_EQ(killable[0].state, JobState::kRequeued);
  EXPECT_EQ(killable[0].start.seconds(), 0);
  EXPECT_EQ(killable[0].end.seconds(), 1000);
  EXPECT_FALSE(killable[1].preempted);
  EXPECT_EQ(killable[1].state, JobState::kCompleted);
  EXPECT_GE(killable[1].start.seconds(), 1500);
  EXPECT_EQ((killable[1].end - killable[1].start).count(), 2000);  // its runtime starts over

  const auto batch = runs_of(r, 2);
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_GE(batch[0].start.seconds(), 1500);  // 10 + 1200 would cross the window
  for (const auto& rec : r.result.records) {
    EXPECT_FALSE(rec.start.seconds() < 1500 && rec.end.seconds() > 1000 && !rec.preempted)
        << "job " << rec.id.value() << " ran during the maintenance";
  }

  const Summary s = summarize(r.result.records, 8, 0);
  EXPECT_EQ(s.preemptions, 1);
  EXPECT_EQ(s.requeues, 1);
  EXPECT_EQ(s.completed, 2);
  // Waits are the final runs' only: job 1 waited from 0 to its restart.
  EXPECT_DOUBLE_EQ(s.wait_max_s,
                   static_cast<double>(std::max(killable[1].start.seconds(), batch[0].start.seconds() - 10)));
}

TEST(MaintenanceScenario, ValidatorRejectsARunThatOverlapsItsPreemptedRun) {
  SimRun r = kScenario.run(
      R"({"id":1,"submit":0,"user":"ann","partition":"scavenger","cores":8,"time_limit":3000,"runtime":2000}
)");
  std::vector<ScheduleRecord> records = r.result.records;
  ASSERT_EQ(records.size(), 2u);
  // The final run moved to start before the preempted one ended.
  records[1].end = records[1].end - (records[1].start - Time::from_seconds(900));
  records[1].start = Time::from_seconds(900);
  const auto bad = kScenario.validate(r, records);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("before its preempted run"), std::string::npos) << bad.error().message;

  // A preempted run with no final run is a job that never finished.
  std::vector<ScheduleRecord> only_preempted{r.result.records[0]};
  const auto missing = kScenario.validate(r, only_preempted);
  ASSERT_FALSE(missing);
}

}  // namespace
}  // namespace fairway::sim
