// A launch the node cannot carry out reaches the user with its reason, not as a bare
// FAILED (issue 9).
#include "tests/integration/cluster_fixture.h"

namespace fairway::integration {
namespace {

TEST_F(Cluster, ALaunchThatFailsOnTheNodeSaysWhyInShowJob) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  auto missing_dir = wrap("true");
  missing_dir.program.working_dir = dir_ + "/no-such-dir";
  auto unwritable = wrap("true");
  unwritable.program.stdout_path = "/proc/fairway-cannot-write-here/out";
  for (const auto& [req, why] : {std::pair{missing_dir, std::string("no-such-dir")},
                                 std::pair{unwritable, std::string("/proc/fairway-cannot-write-here/out")}}) {
    auto id = submit(req);
    ASSERT_TRUE(id);
    auto v = wait_state(*id, [](JobState s) { return is_terminal(s); });
    ASSERT_TRUE(v);
    EXPECT_EQ(v->state, JobState::kFailed);
    EXPECT_NE(v->state_reason.find("kb01"), std::string::npos) << v->state_reason;
    EXPECT_NE(v->state_reason.find(why), std::string::npos) << v->state_reason;
    std::string out;
    if (geteuid() == 0) {
      ASSERT_EQ(run_cli_as("root", {"show", "job", std::to_string(id->value())}, out), 0) << out;
      EXPECT_NE(out.find("StateReason"), std::string::npos) << out;
      EXPECT_NE(out.find(why), std::string::npos) << out;
    }
  }
}

}  // namespace
}  // namespace fairway::integration
