// Memory through the simulator's JSONL: jobs that fit a node's cores but not its memory
// wait, and the independent checker refuses a schedule that overcommits a node.
#include <gtest/gtest.h>

#include <vector>

#include "tests/coordinator/sim/jsonl_scenario.h"

namespace fairway::sim {
namespace {

constexpr const char* kMemoryConfig = R"(
[[nodes]]
names = "n[1-2]"
cores_per_socket = 8
memory_mb = 16000

[[partitions]]
name = "general"
default = true
default_mem_per_cpu_mb = 1000

[scheduler]
backfill = "easy"
)";

using scenario::runs_of;

TEST(MemoryScenario, JobsWaitForMemoryAndTheCheckerHoldsTheNodesToIt) {
  const auto r = scenario::simulate_jsonl(
      kMemoryConfig,
      R"({"id":1,"submit":0,"user":"ann","cores":1,"mem":12000,"time_limit":300,"runtime":100}
{"id":2,"submit":0,"user":"ann","cores":1,"mem":12000,"time_limit":300,"runtime":100}
{"id":3,"submit":0,"user":"ann","cores":1,"mem":12000,"time_limit":300,"runtime":100}
{"id":4,"submit":0,"user":"ann","cores":4,"time_limit":300,"runtime":100}
{"id":5,"submit":0,"user":"ann","cores":2,"mem_per_cpu":3000,"time_limit":300,"runtime":100}
)");
  ASSERT_EQ(r.result.records.size(), 5u);
  EXPECT_EQ(runs_of(r, 1).at(0).start, Time::from_seconds(0));
  EXPECT_EQ(runs_of(r, 2).at(0).start, Time::from_seconds(0));
  EXPECT_EQ(runs_of(r, 3).at(0).start, Time::from_seconds(100)) << "14 cores free, no 12000 MiB";
  // Job 4 (4 x 1000 MiB by default) fits beside a 12000 MiB job; job 5 (6000) does not.
  EXPECT_EQ(runs_of(r, 4).at(0).start, Time::from_seconds(0));
  EXPECT_EQ(runs_of(r, 5).at(0).start, Time::from_seconds(100));
  ASSERT_TRUE(scenario::validate_records(r, r.result.records, true));

  // Forged: job 3 started at once, beside job 1 or 2.
  std::vector<ScheduleRecord> forged = r.result.records;
  for (auto& rec : forged) {
    if (rec.id != JobId(3)) continue;
    rec.start = Time::from_seconds(0);
    rec.end = Time::from_seconds(100);
    Allocation moved = runs_of(r, 1).at(0).allocation.expand();
    moved.nodes[0].cores = {7};
    rec.allocation = CompactAllocation(moved);
  }
  const auto st = scenario::validate_records(r, forged, false);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("more than its 16000 MiB"), std::string::npos) << st.error().message;
}

}  // namespace
}  // namespace fairway::sim
