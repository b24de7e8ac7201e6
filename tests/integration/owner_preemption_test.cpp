// Owner partitions on the real cluster (issue 8, seed 004): an owner job on a full node
// stops the lower-tier job (SIGTERM, grace, SIGKILL), starts once the agent reports it
// gone, and the victim is requeued under the same id, its output appended after a line
// that marks the new attempt; a --no-requeue victim ends as preempted.
#include <fstream>

#include "tests/integration/cluster_fixture.h"

namespace fairway::integration {
namespace {

constexpr const char* kPartitions = R"(
[[partitions]]
name = "general"
default = true
preempt = "requeue"
preempt_grace = "2s"

[[partitions]]
name = "owner"
priority_tier = 1
)";

class OwnerPreemption : public Cluster {
 protected:
  void SetUp() override {
    Cluster::SetUp();
    write_config(kPartitions);
    start_coordinator();
    start_agent("kb01", kebnekaise_xml());  // 28 cores
    ASSERT_TRUE(wait_nodes_up(1));
  }

  // Fills the node; says so on SIGTERM and exits after a short cleanup.
  wire::SubmitRequest victim(const std::string& out) {
    auto r =
        wrap("echo run-${SLURM_RESTART_COUNT-none}; trap 'echo got-term; exit 3' TERM; sleep 300 & wait", 28);
    r.program.stdout_path = out;
    return r;
  }

  wire::SubmitRequest owner(const std::string& cmd) {
    auto r = wrap(cmd, 28);
    r.spec.partition = "owner";
    return r;
  }
};

TEST_F(OwnerPreemption, TheOwnerStartsOnTheVictimsCoresAndTheVictimIsRequeuedWithItsOutputKept) {
  const std::string out = dir_ + "/victim.out";
  auto v = submit(victim(out));
  ASSERT_TRUE(v);
  ASSERT_TRUE(wait_state(*v, [](JobState s) { return s == JobState::kRunning; }));
  ASSERT_TRUE(eventually([&] { return read_file(out).find("run-none") != std::string::npos; }));

  auto o = submit(owner("sleep 2"));
  ASSERT_TRUE(o);
  auto ov = wait_state(*o, [](JobState s) { return s == JobState::kRunning || is_terminal(s); });
  ASSERT_TRUE(ov);
  EXPECT_NE(ov->state, JobState::kPending);
  auto vv = job(*v);
  ASSERT_TRUE(vv);
  EXPECT_EQ(vv->requeue_count, 1);
  const std::string expected = "preempted by job " + std::to_string(o->value()) + " (partition owner) at ";
  EXPECT_NE(vv->state_reason.find(expected), std::string::npos) << vv->state_reason;
  EXPECT_NE(read_file(out).find("got-term"), std::string::npos) << read_file(out);

  // Once the owner is done the victim runs again, appending to its output.
  ASSERT_TRUE(wait_state(*o, [](JobState s) { return is_terminal(s); }));
  ASSERT_TRUE(eventually([&] { return read_file(out).find("run-1") != std::string::npos; }, 15000ms))
      << read_file(out);
  const std::string text = read_file(out);
  const auto marker = text.find("attempt 2 starts here");
  ASSERT_NE(marker, std::string::npos) << text;
  EXPECT_LT(text.find("run-none"), marker);
  EXPECT_LT(marker, text.find("run-1"));
  vv = job(*v);
  ASSERT_TRUE(vv);
  EXPECT_EQ(vv->state, JobState::kRunning);
  wire::JobControl cancel;
  cancel.action = wire::JobAction::kCancel;
  cancel.jobs = {*v};
  cancel.user = current_user();
  (void)call(cancel);
}

TEST_F(OwnerPreemption, ANoRequeueVictimEndsAsPreempted) {
  auto req = victim(dir_ + "/keep.out");
  req.spec.requeue = false;
  auto v = submit(req);
  ASSERT_TRUE(v);
  ASSERT_TRUE(wait_state(*v, [](JobState s) { return s == JobState::kRunning; }));
  auto o = submit(owner("true"));
  ASSERT_TRUE(o);
  auto vv = wait_state(*v, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(vv);
  EXPECT_EQ(vv->state, JobState::kPreempted);
  EXPECT_NE(vv->state_reason.find("preempted by job " + std::to_string(o->value())), std::string::npos)
      << vv->state_reason;
  auto ov = wait_state(*o, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(ov);
  EXPECT_EQ(ov->state, JobState::kCompleted);
}

}  // namespace
}  // namespace fairway::integration
