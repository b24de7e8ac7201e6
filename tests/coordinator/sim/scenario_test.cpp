// End-to-end scenarios through the simulator on a declared machine: config text in, JSONL
// workload in, who starts when and where out, checked by the independent validator.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "coordinator/sim/schedule_validator.h"
#include "coordinator/sim/simulation.h"
#include "shared/config/config.h"
#include "tests/coordinator/sim/jsonl_scenario.h"

namespace fairway::sim {
namespace {

namespace fs = std::filesystem;

// Two Kebnekaise-like GPU nodes (2 x 14 cores, one V100 per socket) and two CPU nodes.
constexpr const char* kMachine = R"(
[[nodes]]
names = "g[1-2]"
sockets = 2
cores_per_socket = 14
gpus_per_socket = 1
gpu_type = "v100"

[[nodes]]
names = "c[1-2]"
sockets = 2
cores_per_socket = 14

[scheduler]
backfill = "easy"
)";

struct ScenarioRun : scenario::JsonlRun {
  std::map<std::uint64_t, ScheduleRecord> by_id;
};

ScenarioRun run(const std::string& toml, const std::string& jsonl) {
  ScenarioRun r{scenario::simulate_jsonl(toml, jsonl), {}};
  for (const auto& rec : r.result.records) r.by_id[rec.id.value()] = rec;
  auto st = scenario::validate_records(r, r.result.records, true);
  EXPECT_TRUE(st) << st.error().message;
  return r;
}

std::string node_name(const ScenarioRun& r, const NodeAllocation& a) {
  return r.result.nodes[a.node.value()].name;
}

TEST(Scenario, GpuWholeNodeAndBackfilledJobsOnAKebnekaiseLikeMachine) {
  ScenarioRun r =
      run(kMachine,
          R"({"id":1,"submit":0,"user":"ann","nodes":2,"cores_per_node":28,"time_limit":3600,"runtime":3000}
{"id":2,"submit":0,"user":"bob","cores":4,"gpus":1,"gpu_type":"v100","time_limit":7200,"runtime":7000}
{"id":3,"submit":10,"user":"cid","nodes":3,"cores_per_node":28,"time_limit":3600,"runtime":100}
{"id":4,"submit":20,"user":"dee","cores":1,"time_limit":600,"runtime":500}
)");
  ASSERT_EQ(r.result.records.size(), 4u);
  // Job 1 takes the two CPU nodes; GPU nodes stay for GPU work.
  const auto& j1 = r.by_id.at(1);
  EXPECT_EQ(j1.start.seconds(), 0);
  for (const auto& a : j1.allocation.expand().nodes) EXPECT_EQ(node_name(r, a)[0], 'c');
  // Job 2's four cores sit on the socket of its GPU.
  const auto& j2 = r.by_id.at(2);
  const Allocation j2_allocation = j2.allocation.expand();
  ASSERT_EQ(j2_allocation.nodes.size(), 1u);
  const auto& a2 = j2_allocation.nodes[0];
  ASSERT_EQ(a2.gpus.size(), 1u);
  const std::int32_t socket_first = a2.gpus[0] * 14;
  for (std::int32_t core : a2.cores) {
    EXPECT_GE(core, socket_first);
    EXPECT_LT(core, socket_first + 14);
  }
  // Job 3 needs three whole nodes: promised at job 1's limit (3600), started when job 1
  // really ended (3000).
  const auto& j3 = r.by_id.at(3);
  ASSERT_TRUE(j3.reserved_start);
  EXPECT_EQ(j3.reserved_start->seconds(), 3600);
  EXPECT_EQ(j3.start.seconds(), 3000);
  // Job 4 is short enough to run in the shadow of job 3's reservation.
  EXPECT_EQ(r.by_id.at(4).start.seconds(), 20);
}

TEST(Scenario, ImpossibleRequestsAreRejectedNotStuck) {
  ScenarioRun r = run(
      kMachine,
      R"({"id":1,"submit":0,"user":"ann","cores":1,"gpus":1,"gpu_type":"a100","time_limit":60,"runtime":10}
{"id":2,"submit":0,"user":"ann","nodes":5,"cores_per_node":1,"time_limit":60,"runtime":10}
{"id":3,"submit":0,"user":"ann","cores":112,"time_limit":60,"runtime":10}
)");
  ASSERT_EQ(r.result.rejected.size(), 2u);
  EXPECT_NE(r.result.rejection_messages[0].find("of type 'a100'"), std::string::npos);
  EXPECT_NE(r.result.rejection_messages[1].find("on 5 nodes"), std::string::npos);
  ASSERT_EQ(r.result.records.size(), 1u);
  EXPECT_EQ(r.result.records[0].allocation.node_count(), 4) << "112 cores spread over all four nodes";
}

TEST(Scenario, ConservativeKeepsEveryPromise) {
  std::string machine = kMachine;
  machine.replace(machine.find("\"easy\""), 6, "\"conservative\"");
  std::string jobs;
  for (int i = 1; i <= 60; ++i) {
    const int cores = 1 + (i * 7) % 40;
    jobs += R"({"id":)" + std::to_string(i) + R"(,"submit":)" + std::to_string(i * 30) + R"(,"user":"u)" +
            std::to_string(i % 5) + R"(","cores":)" + std::to_string(cores) + R"(,"time_limit":)" +
            std::to_string(600 + (i * 131) % 3000) + R"(,"runtime":)" +
            std::to_string(100 + (i * 97) % 3500) + "}\n";
  }
  ScenarioRun r = run(machine, jobs);
  EXPECT_EQ(r.result.records.size(), 60u);
  std::size_t promised = 0;
  for (const auto& rec : r.result.records) promised += rec.reserved_start ? 1 : 0;
  EXPECT_GT(promised, 10u) << "the workload should make many jobs wait with a reservation";
}

}  // namespace
}  // namespace fairway::sim
