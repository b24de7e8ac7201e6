// Owner partitions through the simulator: an owner job arriving on a full machine stops a
// lower-tier job, waits its grace, starts on the freed cores; the victim is requeued and
// runs again in full. The validator accepts the schedule and rejects forged variants.
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
name = "general"
default = true
preempt = "requeue"
preempt_grace = "30s"

[[partitions]]
name = "scratch"
preempt = "cancel"

[[partitions]]
name = "owner"
nodes = "n1"
priority_tier = 1
)"),
                                   false};

using SimRun = scenario::JsonlRun;
using scenario::runs_of;

constexpr const char* kWorkload =
    R"({"id":1,"submit":0,"user":"ann","cores":4,"time_limit":3000,"runtime":2000}
{"id":2,"submit":0,"user":"bob","cores":4,"time_limit":3000,"runtime":2000}
{"id":3,"submit":100,"user":"own","partition":"owner","cores":4,"time_limit":600,"runtime":500}
)";

TEST(OwnerPreemptionScenario, TheVictimStopsAfterItsGraceTheOwnerRunsAndTheVictimRunsAgain) {
  SimRun r = kScenario.run(kWorkload);
  const auto st = kScenario.validate(r, r.result.records);
  EXPECT_TRUE(st) << st.error().message;

  const auto owner = runs_of(r, 3);
  ASSERT_EQ(owner.size(), 1u);
  EXPECT_EQ(owner[0].start.seconds(), 130);  // submit 100 + 30 s grace
  EXPECT_EQ(owner[0].allocation.expand().nodes.front().node, NodeIndex(0));

  const ScheduleRecord* cut = nullptr;
  for (const auto& rec : r.result.records) {
    if (rec.preempted) cut = &rec;
  }
  ASSERT_NE(cut, nullptr);
  EXPECT_EQ(cut->state, JobState::kRequeued);
  EXPECT_EQ(cut->end.seconds(), 130);
  ASSERT_TRUE(cut->preempted_by);
  EXPECT_EQ(*cut->preempted_by, JobId(3));
  const auto again = runs_of(r, cut->id.value());
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(again[1].state, JobState::kCompleted);
  EXPECT_GE(again[1].start.seconds(), 130);
  EXPECT_EQ((again[1].end - again[1].start).count(), 2000);

  const Summary s = summarize(r.result.records, 8, 0);
  EXPECT_EQ(s.preemptions, 1);
  EXPECT_EQ(s.requeues, 1);
  EXPECT_EQ(s.completed, 3);
}

TEST(OwnerPreemptionScenario, ACancelModeVictimEndsPreemptedWithOneFinalRecord) {
  SimRun r = kScenario.run(
      R"({"id":1,"submit":0,"user":"ann","partition":"scratch","cores":4,"time_limit":3000,"runtime":2000}
{"id":2,"submit":0,"user":"bob","partition":"scratch","cores":4,"time_limit":3000,"runtime":2000}
{"id":3,"submit":100,"user":"own","partition":"owner","cores":4,"time_limit":600,"runtime":500}
)");
  const auto st = kScenario.validate(r, r.result.records);
  EXPECT_TRUE(st) << st.error().message;
  int preempted = 0;
  for (const auto& rec : r.result.records) {
    if (rec.state == JobState::kPreempted) {
      ++preempted;
      EXPECT_FALSE(rec.preempted);
      EXPECT_EQ(rec.end.seconds(), 100);  // no grace in scratch
    }
  }
  EXPECT_EQ(preempted, 1);
  EXPECT_EQ(runs_of(r, 3).at(0).start.seconds(), 100);
}

TEST(OwnerPreemptionScenario, TheValidatorRejectsAnOwnerThatWaitedLongerThanTheGrace) {
  SimRun r = kScenario.run(kWorkload);
  std::vector<ScheduleRecord> late = r.result.records;
  for (auto& rec : late) {
    if (rec.id == JobId(3)) {  // started at 130 (grace 30); as if the owner waited 100 s more
      rec.start = rec.start + Duration::seconds(100);
      rec.end = rec.end + Duration::seconds(100);
    }
  }
  const auto st = kScenario.validate(r, late);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("job 3 (tier 1) arrived at 100"), std::string::npos)
      << st.error().message;
  EXPECT_NE(st.error().message.find("longest grace 30 s"), std::string::npos) << st.error().message;
}

TEST(OwnerPreemptionScenario, TheValidatorRejectsAnOwnerOnItsVictimsCoresAndAWrongTier) {
  SimRun r = kScenario.run(kWorkload);
  std::vector<ScheduleRecord> early = r.result.records;
  for (auto& rec : early) {
    if (rec.id == JobId(3)) {
      rec.start = Time::from_seconds(110);
      rec.end = Time::from_seconds(610);
    }
  }
  const auto overlap = kScenario.validate(r, early);
  ASSERT_FALSE(overlap);
  EXPECT_NE(overlap.error().message.find("at the same time"), std::string::npos) << overlap.error().message;

  std::vector<ScheduleRecord> wrong = r.result.records;
  for (auto& rec : wrong) {
    if (rec.preempted) rec.preempted_by = JobId(rec.id == JobId(1) ? 2 : 1);  // a tier-0 job
  }
  const auto tier = kScenario.validate(r, wrong);
  ASSERT_FALSE(tier);
  EXPECT_NE(tier.error().message.find("not a higher one"), std::string::npos) << tier.error().message;
}

}  // namespace
}  // namespace fairway::sim

namespace fairway::sim {
namespace {

// Issue 33 item 4: the simulator honours partitions' access lists as the daemon does. Bob's
// job aimed at the owners' partition is refused at its arrival and preempts nobody; the
// owners' job, charged to their account, does.
TEST(OwnerPreemptionScenario, AnAccountOutsideAllowAccountsIsRefusedAndPreemptsNobody) {
  const std::string config = kScenario.config + R"(
[[partitions]]
name = "condo"
nodes = "n2"
priority_tier = 1
allow_accounts = ["lab"]
)";
  constexpr const char* workload =
      R"({"id":1,"submit":0,"user":"ann","cores":4,"time_limit":3000,"runtime":2000}
{"id":2,"submit":0,"user":"ann","cores":4,"time_limit":3000,"runtime":2000}
{"id":3,"submit":100,"user":"bob","account":"bob","partition":"condo","cores":4,"time_limit":600,"runtime":500}
)";
  SimRun r = scenario::simulate_jsonl(config, workload);
  ASSERT_EQ(r.result.rejected, std::vector<JobId>{JobId(3)});
  EXPECT_EQ(
      r.result.rejection_messages.at(0),
      "job 3: Job's account not permitted to use this partition (partition 'condo' allow_accounts = lab, "
      "not account 'bob')");
  EXPECT_EQ(runs_of(r, 1).size(), 1u) << "ann's job was preempted";
  EXPECT_EQ(runs_of(r, 2).size(), 1u) << "ann's job was preempted";

  const std::string owners =
      std::string(workload).replace(std::string(workload).find("\"bob\",\"partition\""), 5, "\"lab\"");
  SimRun ok = scenario::simulate_jsonl(config, owners);
  EXPECT_TRUE(ok.result.rejected.empty());
  EXPECT_LT(runs_of(ok, 3).at(0).start.seconds(), 2000) << "the owners' job preempts, not waits";
}

}  // namespace
}  // namespace fairway::sim
