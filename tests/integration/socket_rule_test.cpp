// One socket-exclusive rule on both sides (issue 14): with socket_exclusive_gpus off, the
// coordinator places CPU work beside a GPU job's socket and the agent runs it, instead of
// refusing the launch (the job used to end FAILED).
#include "tests/integration/cluster_fixture.h"

namespace fairway::integration {
namespace {

TEST_F(Cluster, WithoutSocketFencingTheAgentRunsWhatTheCoordinatorPlaced) {
  write_config("[[partitions]]\nname = \"batch\"\ndefault = true\nsocket_exclusive_gpus = false\n");
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());  // 2 sockets x 14 cores, a V100 on each
  ASSERT_TRUE(wait_nodes_up(1));
  auto gpu = wrap("sleep 30", 1);
  gpu.spec.resources.gpus = 2;  // a GPU on each socket: with fencing nothing else could run
  auto g = submit(gpu);
  ASSERT_TRUE(g);
  ASSERT_TRUE(wait_state(*g, [](JobState s) { return s == JobState::kRunning; }));
  auto c = submit(wrap("true", 20));
  ASSERT_TRUE(c);
  auto v = wait_state(*c, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCompleted) << v->state_reason;
  wire::JobControl cancel;
  cancel.action = wire::JobAction::kCancel;
  cancel.jobs = {*g};
  cancel.user = current_user();
  (void)call(cancel);
}

}  // namespace
}  // namespace fairway::integration
