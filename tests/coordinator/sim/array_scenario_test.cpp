// Job arrays through the simulator's JSONL: tasks take the ids after their array's, run
// its runtime within the %limit, a dependency on the array waits for all of them, and the
// independent checker holds the schedule to that with the workload expanded into tasks.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <vector>

#include "tests/coordinator/sim/jsonl_scenario.h"

namespace fairway::sim {
namespace {

constexpr const char* kOneNode = R"(
[[nodes]]
names = "n1"
cores_per_socket = 4

[scheduler]
backfill = "easy"
)";

using scenario::runs_of;

TEST(ArrayScenario, TasksRunWithinTheLimitAndADependencyWaitsForAllOfThem) {
  auto r = scenario::simulate_jsonl(
      kOneNode,
      R"({"id":1,"submit":0,"user":"ann","cores":1,"array":"0-9%3","time_limit":100,"runtime":50}
{"id":20,"submit":0,"user":"bob","cores":1,"time_limit":100,"runtime":10,"dependency":"afterok:1"}
{"id":30,"submit":0,"user":"cy","cores":1,"time_limit":1000,"runtime":500}
)");
  ASSERT_EQ(r.result.records.size(), 12u);  // ten tasks, the dependent job, the long one
  for (std::uint64_t task = 0; task < 10; ++task) {
    const auto runs = runs_of(r, 2 + task);
    ASSERT_EQ(runs.size(), 1u) << "task " << task;
    EXPECT_EQ(runs[0].start, Time::from_seconds(static_cast<std::int64_t>(task / 3) * 50)) << "task " << task;
  }
  EXPECT_EQ(runs_of(r, 30).at(0).start, Time::from_seconds(0));    // the core the limit leaves
  EXPECT_EQ(runs_of(r, 20).at(0).start, Time::from_seconds(200));  // after task 9 ends

  r.workload = with_array_tasks(r.workload);
  ASSERT_EQ(r.workload.jobs.size(), 12u);
  EXPECT_EQ(r.workload.jobs[0].spec.id, JobId(2));
  EXPECT_EQ(r.workload.jobs[0].spec.array_job, JobId(1));
  EXPECT_EQ(r.workload.jobs[9].spec.array_task, 9);
  ASSERT_TRUE(scenario::validate_records(r, r.result.records, true));

  // Forged: the dependent job starts while the last task still runs.
  std::vector<ScheduleRecord> forged = r.result.records;
  for (auto& rec : forged) {
    if (rec.id != JobId(20)) continue;
    rec.start = Time::from_seconds(150);
    rec.end = Time::from_seconds(160);
  }
  const auto st = scenario::validate_records(r, forged, false);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("job 20"), std::string::npos) << st.error().message;

  // Forged: a task of the array never ran.
  std::vector<ScheduleRecord> missing;
  for (const auto& rec : r.result.records) {
    if (rec.id != JobId(7)) missing.push_back(rec);
  }
  const auto gone = scenario::validate_records(r, missing, false);
  ASSERT_FALSE(gone);
  EXPECT_NE(gone.error().message.find("job 7"), std::string::npos) << gone.error().message;
}

TEST(ArrayScenario, AnotherJobOnAnArrayTasksIdIsRefusedNamingBoth) {
  const auto file =
      std::filesystem::temp_directory_path() / ("fairway-array-" + std::to_string(::getpid()) + ".jsonl");
  std::ofstream(file)
      << R"({"id":1,"submit":0,"user":"ann","cores":1,"array":"0-9","time_limit":100,"runtime":50}
{"id":5,"submit":0,"user":"bob","cores":1,"time_limit":100,"runtime":10}
)";
  auto w = read_jsonl(file.string());
  std::filesystem::remove(file);
  ASSERT_FALSE(w);
  EXPECT_NE(w.error().message.find(":2: job id 5 is taken by the tasks of array 1 (line 1, ids 2-11)"),
            std::string::npos)
      << w.error().message;
}

}  // namespace
}  // namespace fairway::sim
