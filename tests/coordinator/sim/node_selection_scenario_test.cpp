// -w/-x/-C and --exclusive through the simulator's JSONL: jobs land where their keys say,
// and the independent checker refuses a schedule that puts one elsewhere.
#include <gtest/gtest.h>

#include <vector>

#include "tests/coordinator/sim/jsonl_scenario.h"

namespace fairway::sim {
namespace {

const scenario::Scenario kScenario{scenario::easy_config(R"(
[[nodes]]
names = "n[1-2]"
cores_per_socket = 4
features = ["ib"]

[[nodes]]
names = "n3"
cores_per_socket = 4
)",
                                                         scenario::kGeneralPartition)};

using scenario::runs_of;

TEST(NodeSelectionScenario, JobsRunWhereTheirJsonlSaysAndTheCheckerKnows) {
  const auto r = kScenario.run(
      R"({"id":1,"submit":0,"user":"ann","cores":1,"time_limit":300,"runtime":100,"nodelist":"n3"}
{"id":2,"submit":0,"user":"ann","cores":1,"time_limit":300,"runtime":100,"exclude":"n[1-2]"}
{"id":3,"submit":0,"user":"ann","cores":4,"time_limit":300,"runtime":100,"constraint":"ib"}
{"id":4,"submit":0,"user":"ann","cores":1,"time_limit":300,"runtime":100,"exclusive":true}
)");
  const auto node_of = [&](std::uint64_t id) {
    const auto runs = runs_of(r, id);
    return runs.empty() || runs[0].allocation.empty()
               ? std::string("-")
               : r.result.nodes[runs[0].allocation.expand().nodes[0].node.value()].name;
  };
  EXPECT_EQ(node_of(1), "n3");
  EXPECT_EQ(node_of(2), "n3");
  EXPECT_NE(node_of(3), "n3");
  EXPECT_EQ(runs_of(r, 4).at(0).allocation.total_cores(), 4);  // a whole node
  auto st = kScenario.validate(r, r.result.records);
  EXPECT_TRUE(st) << st.error().message;
  // Moved onto a node it excluded, the checker says so.
  std::vector<ScheduleRecord> forged = r.result.records;
  for (auto& rec : forged) {
    if (rec.id == JobId(2)) {
      Allocation moved = rec.allocation.expand();
      moved.nodes[0].node = NodeIndex(0);
      rec.allocation = CompactAllocation(moved);
    }
  }
  auto bad = kScenario.validate(r, forged);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("job 2 ran on node n1, which it excluded"), std::string::npos)
      << bad.error().message;
}

}  // namespace
}  // namespace fairway::sim
