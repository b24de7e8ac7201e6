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
  auto workload = read_jsonl(write_file("w.jsonl",
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

}  // namespace
}  // namespace fairway::sim
