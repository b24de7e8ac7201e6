// The simulator's event loop passes again when a pass names a time a held job's limit opens
// (MAXPS), as the coordinator's periodic pass would, and not only at arrivals and ends.
#include <gtest/gtest.h>

#include <map>

#include "coordinator/sim/schedule_validator.h"
#include "coordinator/sim/simulation.h"
#include "shared/config/config_file.h"
#include "temp_dir_test_base.h"

namespace fairway::sim {
namespace {

class SimulationTest : public TempDirTest {};

// Akka's policy on Seth (the profile the HPC2N trace is replayed under): a user's two
// 20-core, 12-hour jobs exceed MAXPS hard together. The second starts when the first owes
// 216,000 PS (at 32,400 s), not when the first ends (43,200 s): before, the machine sat
// idle for those 10,800 s because nothing happened to trigger a pass.
TEST_F(SimulationTest, MaxPsHeldJobStartsWhenItsLimitOpensWithNoEvent) {
  auto config = load_config_file(std::string(FAIRWAY_SOURCE_DIR) + "/examples/profiles/hpc2n-seth.toml");
  ASSERT_TRUE(config) << config.error().message;
  auto workload =
      read_jsonl(write_file("w.jsonl",
                            R"({"id":1,"submit":0,"user":"u","cores":20,"time_limit":43200,"runtime":43200}
{"id":2,"submit":100,"user":"u","cores":20,"time_limit":43200,"runtime":600}
{"id":3,"submit":200,"user":"u","cores":20,"time_limit":43200,"runtime":600}
)"));
  ASSERT_TRUE(workload) << workload.error().message;
  auto result = simulate(*config, *workload);
  ASSERT_TRUE(result) << result.error().message;
  std::map<std::uint64_t, ScheduleRecord> by_id;
  for (const auto& r : result->records) by_id[r.id.value()] = r;
  ASSERT_EQ(by_id.size(), 3u);
  EXPECT_EQ(by_id.at(1).start.seconds(), 0);
  EXPECT_EQ(by_id.at(2).start.seconds(), 32400);
  // Job 3 needs jobs 1 and 2 to owe 216,000 together: 20 x (43200 - t) + 20 x (75600 - t),
  // until job 2 ends at 33,000 and its share is gone: 20 x (43200 - t) <= 216,000 at 33,000.
  EXPECT_EQ(by_id.at(3).start.seconds(), 33000);
  ValidationInput in;
  in.nodes = &result->nodes;
  in.workload = &*workload;
  in.records = &result->records;
  in.rejected = result->rejected;
  in.check_reservations = true;
  auto st = validate_schedule(in);
  EXPECT_TRUE(st) << st.error().message;
}

// examples/sim/easy-plus-plus.toml on one 4-core node: Alice's first two runs (100 s each
// against 1-hour limits) teach the simulator her runtimes, so her third job, predicted to
// end long before Bob's reservation at t=1200, backfills at once; planned by its limit
// under plain EASY it waits for Bob.
TEST_F(SimulationTest, RuntimePredictionsLearntInTheReplayLetAJobBackfill) {
  const std::string jobs =
      R"({"id":1,"submit":0,"user":"alice","cores":4,"time_limit":3600,"runtime":100}
{"id":2,"submit":0,"user":"alice","cores":4,"time_limit":3600,"runtime":100}
{"id":3,"submit":200,"user":"carol","cores":3,"time_limit":1000,"runtime":1000}
{"id":4,"submit":201,"user":"bob","cores":4,"time_limit":1000,"runtime":10}
{"id":5,"submit":202,"user":"alice","cores":1,"time_limit":3600,"runtime":100}
)";
  std::map<std::string, std::int64_t> alice_third_start;
  for (const char* policy : {"easy", "easy-plus-plus"}) {
    auto config = load_config_file(std::string(FAIRWAY_SOURCE_DIR) + "/examples/sim/" + policy + ".toml");
    ASSERT_TRUE(config) << config.error().message;
    config->nodes = {NodeTopology::uniform("n0", 1, 4)};
    auto workload = read_jsonl(write_file(std::string(policy) + ".jsonl", jobs));
    ASSERT_TRUE(workload) << workload.error().message;
    auto result = simulate(*config, *workload);
    ASSERT_TRUE(result) << result.error().message;
    for (const auto& r : result->records) {
      if (r.id == JobId(4)) {
        EXPECT_EQ(r.start.seconds(), 1200) << policy;
      }
      if (r.id == JobId(5)) alice_third_start[policy] = r.start.seconds();
    }
    ValidationInput in;
    in.nodes = &result->nodes;
    in.workload = &*workload;
    in.records = &result->records;
    in.rejected = result->rejected;
    auto st = validate_schedule(in);
    EXPECT_TRUE(st) << policy << ": " << st.error().message;
  }
  EXPECT_EQ(alice_third_start["easy"], 1210);
  EXPECT_EQ(alice_third_start["easy-plus-plus"], 202);
}

TEST(MachineSizeWarning, SaysSoWhenTheTraceAndTheConfigAreMoreThanTwiceApart) {
  Config c;
  for (int i = 0; i < 4; ++i)
    c.nodes.push_back(NodeTopology::uniform("n" + std::to_string(i), 1, 16));  // 64 cores
  Workload w;
  w.max_procs = 100;
  EXPECT_TRUE(machine_size_warning(c, w).empty());  // within a factor of two
  w.max_procs = 512;
  EXPECT_EQ(
      machine_size_warning(c, w),
      "the trace's machine has 512 processors (its MaxProcs/MaxNodes header) and the config's 64 cores, "
      "less than half: waits and utilization will not be those of the trace's site");
  w.max_procs = 0;
  w.max_nodes = 16;  // Lublin's traces state only MaxNodes
  EXPECT_NE(machine_size_warning(c, w).find("more than twice as many"), std::string::npos);
  w.max_nodes = 0;
  EXPECT_TRUE(machine_size_warning(c, w).empty());  // the trace says nothing
  EXPECT_TRUE(machine_size_warning(Config{}, w).empty());
}

}  // namespace
}  // namespace fairway::sim
