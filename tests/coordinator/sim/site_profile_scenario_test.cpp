// Each shipped site profile (examples/profiles/*.toml) end to end through the simulator:
// the profile's policy on a small machine, a JSONL workload, and who starts when, with the
// schedule checked by the independent validator.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "coordinator/sim/schedule_validator.h"
#include "coordinator/sim/simulation.h"
#include "shared/config/config_file.h"

namespace fairway::sim {
namespace {

namespace fs = std::filesystem;

// The profile's policy on `n` nodes of `cores` cores; every partition spans them all,
// so a scenario can make jobs contend with a handful of requests.
Config profile_on(const std::string& name, int n, int cores) {
  auto c = load_config_file(std::string(FAIRWAY_SOURCE_DIR) + "/examples/profiles/" + name + ".toml");
  EXPECT_TRUE(c) << c.error().message;
  if (!c) return {};
  c->nodes.clear();
  for (int i = 0; i < n; ++i) {
    c->nodes.push_back(NodeTopology::uniform("n" + std::to_string(i), 1, cores, 0, ""));
  }
  for (auto& p : c->partitions) p.nodes.clear();
  return *c;
}

struct ProfileRun {
  SimulationResult result;
  std::map<std::uint64_t, ScheduleRecord> by_id;
  std::int64_t start(std::uint64_t id) const { return by_id.at(id).start.seconds(); }
};

ProfileRun run(const Config& config, const std::string& jsonl, bool validate = true) {
  const fs::path file =
      fs::temp_directory_path() / ("fairway-profile-scenario-" + std::to_string(::getpid()) + ".jsonl");
  std::ofstream(file) << jsonl;
  auto workload = read_jsonl(file.string());
  fs::remove(file);
  EXPECT_TRUE(workload) << workload.error().message;
  // A profile that fails to parse or simulate fails the test here; the empty run that
  // comes back makes later lookups throw (a reported failure), never crash.
  if (!workload) return {};
  auto result = simulate(config, *workload);
  EXPECT_TRUE(result) << result.error().message;
  if (!result) return {};
  ProfileRun r{std::move(*result), {}};
  for (const auto& rec : r.result.records) r.by_id[rec.id.value()] = rec;
  if (!validate) return r;
  ValidationInput in;
  in.nodes = &r.result.nodes;
  in.workload = &*workload;
  in.records = &r.result.records;
  in.rejected = r.result.rejected;
  in.check_reservations = config.scheduler.backfill != BackfillMode::kNone;
  take_partition_rounding(config, in);
  auto st = validate_schedule(in);
  EXPECT_TRUE(st) << st.error().message;
  return r;
}

// Titan's debug queue: a later debug job overtakes an older batch job (2-day boost).
TEST(ProfileScenario, TitanDebugJobOvertakesOlderBatchJob) {
  ProfileRun r = run(profile_on("titan", 1, 16),
                     R"({"id":1,"submit":0,"user":"a","cores":16,"time_limit":7200,"runtime":7200}
{"id":2,"submit":60,"user":"b","cores":16,"time_limit":3600,"runtime":3600}
{"id":3,"submit":120,"user":"c","partition":"debug","cores":16,"time_limit":1800,"runtime":1800}
)");
  EXPECT_EQ(r.start(1), 0);
  EXPECT_EQ(r.start(3), 7200);
  EXPECT_EQ(r.start(2), 9000);
}

// Sigma2's QOS ladder: short outranks unpri; a devel job (at the reservation threshold
// at once) starts in the cores left free while the unpri job, below the threshold and so
// without a reservation, keeps waiting.
TEST(ProfileScenario, Sigma2QosOrderAndReservationThreshold) {
  ProfileRun r = run(profile_on("sigma2", 1, 32),
                     R"({"id":1,"submit":0,"user":"a","cores":32,"time_limit":7200,"runtime":7200}
{"id":2,"submit":10,"user":"b","qos":"unpri","cores":32,"time_limit":7200,"runtime":7200}
{"id":3,"submit":20,"user":"c","qos":"short","cores":16,"time_limit":14400,"runtime":14400}
{"id":4,"submit":7300,"user":"d","qos":"devel","cores":16,"time_limit":3600,"runtime":3600}
)");
  EXPECT_EQ(r.start(3), 7200);
  EXPECT_EQ(r.start(4), 7300);
  EXPECT_EQ(r.start(2), 21600);
}

// HPC2N Akka: fair-share puts a newcomer ahead of a user already running; a job whose
// walltime x cores alone exceeds the MAXPS hard limit is refused.
TEST(ProfileScenario, Hpc2nAkkaFairShareAndMaxPsHard) {
  ProfileRun r = run(profile_on("hpc2n-akka", 1, 8),
                     R"({"id":1,"submit":0,"user":"a","cores":8,"time_limit":3600,"runtime":3600}
{"id":2,"submit":10,"user":"a","cores":8,"time_limit":3600,"runtime":3600}
{"id":3,"submit":20,"user":"b","cores":8,"time_limit":3600,"runtime":3600}
{"id":4,"submit":30,"user":"c","cores":8,"time_limit":172800,"runtime":100}
)");
  EXPECT_EQ(r.start(1), 0);
  EXPECT_EQ(r.start(3), 3600);
  EXPECT_EQ(r.start(2), 7200);
  ASSERT_EQ(r.result.rejected.size(), 1u);
  EXPECT_EQ(r.result.rejected[0], JobId(4));
}

// Kebnekaise: 30 cores on 28-core nodes become two whole nodes, so a one-core job waits
// until they are released. The validator accepts the two whole nodes from the profile's
// whole_nodes_above_node_size.
TEST(ProfileScenario, KebnekaiseWholeNodesAboveOneNode) {
  ProfileRun r = run(profile_on("kebnekaise", 2, 28),
                     R"({"id":1,"submit":0,"user":"a","cores":30,"time_limit":3600,"runtime":3600}
{"id":2,"submit":10,"user":"b","cores":1,"time_limit":600,"runtime":600}
)");
  EXPECT_EQ(r.by_id.at(1).allocation.total_cores(), 56);
  EXPECT_EQ(r.by_id.at(1).allocation.node_count(), 2);
  EXPECT_EQ(r.start(2), 3600);
}

// Palmetto's main-loop example through the simulator: job 1 (two nodes) waits for busy
// nodes, jobs 2 and 3 (one node each) wait behind it, and a short job 4 is backfilled.
TEST(ProfileScenario, Palmetto2MainLoopThenBackfill) {
  ProfileRun r = run(profile_on("palmetto2", 4, 1),
                     R"({"id":101,"submit":0,"user":"x","nodes":1,"time_limit":3600,"runtime":3600}
{"id":102,"submit":0,"user":"x","nodes":1,"time_limit":7200,"runtime":7200}
{"id":103,"submit":0,"user":"x","nodes":1,"time_limit":10800,"runtime":10800}
{"id":1,"submit":10,"user":"a","nodes":2,"time_limit":14400,"runtime":14400}
{"id":2,"submit":20,"user":"a","nodes":1,"time_limit":14400,"runtime":14400}
{"id":3,"submit":30,"user":"a","nodes":1,"time_limit":14400,"runtime":14400}
{"id":4,"submit":40,"user":"a","nodes":1,"time_limit":1800,"runtime":1800}
)");
  EXPECT_EQ(r.start(4), 40) << "ends before job 1's reservation";
  EXPECT_EQ(r.start(1), 3600);
  EXPECT_EQ(r.start(2), 7200);
  EXPECT_EQ(r.start(3), 10800);
}

}  // namespace
}  // namespace fairway::sim
