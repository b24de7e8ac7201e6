// --dependency, --begin and --nice through the simulator's JSONL: a chain runs in order on
// an idle machine, a job with a failed prerequisite never runs, and --begin holds a job
// until its time even with free cores. The validator accepts the schedule.
#include <gtest/gtest.h>

#include <vector>

#include "tests/coordinator/sim/jsonl_scenario.h"

namespace fairway::sim {
namespace {

const scenario::Scenario kScenario{scenario::easy_config(scenario::kTwoNodes, scenario::kGeneralPartition)};

using scenario::runs_of;

TEST(DependencyScenario, ChainsBeginTimesAndNeverSatisfied) {
  // 1 -> 2 (afterok) -> 3 (afterany); 4 waits for 1 to fail (it does not): never runs.
  // 5 begins at t=500 on an idle machine.
  const auto r = kScenario.run(
      R"({"id":1,"submit":0,"user":"ann","cores":2,"time_limit":300,"runtime":100}
{"id":2,"submit":0,"user":"ann","cores":2,"time_limit":300,"runtime":50,"dependency":"afterok:1"}
{"id":3,"submit":10,"user":"ann","cores":2,"time_limit":300,"runtime":50,"dependency":"afterany:2"}
{"id":4,"submit":10,"user":"bob","cores":2,"time_limit":300,"runtime":50,"dependency":"afternotok:1"}
{"id":5,"submit":20,"user":"bob","cores":1,"time_limit":300,"runtime":10,"begin":500}
{"id":6,"submit":30,"user":"bob","cores":1,"time_limit":300,"runtime":10,"dependency":"afternotok:1","kill_on_invalid_dep":true}
)");
  const auto one = runs_of(r, 1);
  const auto two = runs_of(r, 2);
  const auto three = runs_of(r, 3);
  const auto five = runs_of(r, 5);
  ASSERT_EQ(one.size(), 1u);
  ASSERT_EQ(two.size(), 1u);
  ASSERT_EQ(three.size(), 1u);
  ASSERT_EQ(five.size(), 1u);
  EXPECT_EQ(one[0].start, Time::from_seconds(0));
  EXPECT_EQ(two[0].start, one[0].end);  // the moment job 1 completed
  EXPECT_EQ(three[0].start, two[0].end);
  EXPECT_EQ(five[0].start, Time::from_seconds(500));
  // Job 4 never ran: still waiting when the trace ended.
  EXPECT_TRUE(runs_of(r, 4).empty());
  // Job 6 asked to be cancelled instead: its record says so, when job 1 completed.
  const auto six = runs_of(r, 6);
  ASSERT_EQ(six.size(), 1u);
  EXPECT_EQ(six[0].state, JobState::kCancelled);
  EXPECT_EQ(six[0].end, one[0].end);
  auto st = kScenario.validate(r, r.result.records);
  EXPECT_TRUE(st) << st.error().message;

  // Forged schedules the checker must refuse.
  const auto forged = [&](std::uint64_t id, Time start) {
    std::vector<ScheduleRecord> recs = r.result.records;
    for (auto& rec : recs) {
      if (rec.id == JobId(id)) {
        rec.end = start + (rec.end - rec.start);
        rec.start = start;
      }
    }
    auto v = kScenario.validate(r, recs);
    return v ? std::string("(accepted)") : v.error().message;
  };
  EXPECT_NE(
      forged(2, Time::from_seconds(50)).find("job 2 started at t=50, before its dependency held at t=100"),
      std::string::npos);
  EXPECT_NE(forged(5, Time::from_seconds(400)).find("job 5 started at t=400, before its --begin t=500"),
            std::string::npos);
  std::vector<ScheduleRecord> without_two;
  for (const auto& rec : r.result.records) {
    if (rec.id != JobId(2) && rec.id != JobId(3)) without_two.push_back(rec);
  }
  auto missing = kScenario.validate(r, without_two);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("job 2 never ran, but its dependency held from t=100"),
            std::string::npos)
      << missing.error().message;
}

TEST(DependencyScenario, BadDependencyTextNamesLineAndKey) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("fairway-dep-" + std::to_string(::getpid()) + ".jsonl");
  std::ofstream(file)
      << R"({"id":1,"submit":0,"user":"ann","cores":1,"time_limit":60,"runtime":1,"dependency":"afterok:x"})"
      << "\n";
  auto w = read_jsonl(file.string());
  std::filesystem::remove(file);
  ASSERT_FALSE(w);
  EXPECT_NE(w.error().message.find("dependency"), std::string::npos) << w.error().message;
  EXPECT_NE(w.error().message.find("bad job id \"x\""), std::string::npos) << w.error().message;
}

}  // namespace
}  // namespace fairway::sim
