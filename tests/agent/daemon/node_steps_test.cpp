// The steps of a node's jobs on the fake host, with no process: held until their job
// runs, started in its cgroup, signalled and stopped with it, ended, found again.
#include "agent/daemon/node_steps.h"

#include <gtest/gtest.h>

#include <csignal>

#include "tests/agent/daemon/agent_on_fake_host.h"
#include "tests/support/fake_agent_host.h"

namespace fairway::agent {
namespace {

using testing::FakeHost;
using testing::Machine;
using testing::step_of;

class NodeStepsTest : public ::testing::Test {
 protected:
  NodeStepsTest() {
    node.topology = NodeTopology::uniform("n1", 1, 4);
    node.core_pus = {{0, 4}, {1, 5}, {2, 6}, {3, 7}};
    options.step_relay_path = "/usr/lib/fairway/fairway-step";
    options.kill_grace = Duration::seconds(5);
  }
  // Step `step` of `job` started and handed back running as `pid` (its own group).
  void running(std::uint64_t job, std::int32_t step, std::int64_t pid) {
    steps.start(step_of(job, step), {1}, {}, std::nullopt);
    steps.launched(JobId(job), step, LaunchedProcess{static_cast<pid_t>(pid), static_cast<pid_t>(pid), {}},
                   false, true);
  }
  using Signals = std::vector<std::pair<std::int64_t, int>>;

  DiscoveredNode node;
  AgentOptions options;
  std::shared_ptr<Machine> machine = std::make_shared<Machine>();
  FakeHost host{machine};
  NodeSteps steps{node, options, host};
};

TEST_F(NodeStepsTest, AStepHeldForItsJobIsTakenOnce) {
  steps.hold(step_of(3, 0));
  steps.hold(step_of(3, 1));
  EXPECT_FALSE(steps.take_held(JobId(3), 5));
  ASSERT_TRUE(steps.take_held(JobId(3), 1));
  EXPECT_FALSE(steps.take_held(JobId(3), 1));
  steps.drop_held(JobId(3));
  EXPECT_FALSE(steps.take_held(JobId(3), 0));
}

TEST_F(NodeStepsTest, ARelayRunsInItsJobsCgroupOnItsCoresPus) {
  steps.start(step_of(3, 2), {1, 2}, {}, std::int64_t{1} << 30);
  ASSERT_EQ(machine->launches.size(), 1u);
  const LaunchRequest& r = machine->launches[0];
  EXPECT_EQ(r.job, JobId(3));
  EXPECT_EQ(r.step, 2);
  EXPECT_EQ(r.program.argv, (std::vector<std::string>{"/usr/lib/fairway/fairway-step", "--", "sim"}));
  EXPECT_EQ(r.bind_pus, (std::vector<std::int32_t>{1, 5, 2, 6}));
  auto env = [&](std::string_view name) {
    for (const auto& [k, v] : r.program.env)
      if (k == name) return v;
    return std::string("(unset)");
  };
  EXPECT_EQ(env(kStepEnvCorePus), "1,5;2,6");
  EXPECT_EQ(env(kStepEnvGrace), "5");
  ASSERT_EQ(machine->cgroup_limits.size(), 1u);
  EXPECT_EQ(machine->cgroup_limits[0].job, JobId(3));
  EXPECT_EQ(machine->cgroup_limits[0].cpus, (std::vector<std::int32_t>{1, 5, 2, 6}));
  EXPECT_EQ(machine->cgroup_limits[0].memory_bytes, std::int64_t{1} << 30);
}

TEST_F(NodeStepsTest, StepsAreSignalledAndStoppedWithTheirJobAndEndOnce) {
  running(3, 0, 300);
  running(3, 1, 310);
  running(4, 0, 400);
  EXPECT_EQ(steps.running(JobId(3)), 2u);
  EXPECT_EQ(machine->step_checkpoints.size(), 3u);
  steps.signal(JobId(3), SIGTERM);
  EXPECT_EQ(machine->group_signals, (Signals{{300, SIGTERM}, {310, SIGTERM}}));
  machine->group_signals.clear();
  // A relay ends: what is left of its group goes, and its checkpoint.
  EXPECT_EQ(steps.ended(300), JobId(3));
  EXPECT_EQ(machine->group_signals, (Signals{{300, SIGKILL}}));
  EXPECT_EQ(machine->forgotten_steps, (std::vector<std::pair<JobId, std::int32_t>>{{JobId(3), 0}}));
  EXPECT_FALSE(steps.ended(300));
  EXPECT_FALSE(steps.ended(999));  // no step's relay
  EXPECT_EQ(steps.running(JobId(3)), 1u);
  EXPECT_FALSE(steps.done(JobId(3), 30));
  machine->group_signals.clear();
  // Its job ends: its steps are killed and hold it no longer.
  steps.stop(JobId(3));
  EXPECT_EQ(machine->group_signals, (Signals{{310, SIGKILL}}));
  EXPECT_EQ(steps.running(JobId(3)), 0u);
  EXPECT_TRUE(steps.done(JobId(3), 30));
  machine->live_groups.insert(30);  // something is left in its script's group
  EXPECT_FALSE(steps.done(JobId(3), 30));
  EXPECT_EQ(steps.running(JobId(4)), 1u);
}

TEST_F(NodeStepsTest, ARelayHandedBackLateIsKilledWhenItsJobIsGoneAndForgottenWhenItEnded) {
  steps.launched(JobId(5), 0, LaunchedProcess{500, 500, {}}, false, false);
  EXPECT_EQ(machine->group_signals, (Signals{{500, SIGKILL}}));
  EXPECT_EQ(steps.running(JobId(5)), 0u);
  EXPECT_EQ(steps.ended(500), JobId(5));  // its keeper is still reaped as a step's
  machine->group_signals.clear();
  steps.launched(JobId(6), 0, LaunchedProcess{600, 600, {}}, true, true);
  EXPECT_EQ(machine->group_signals, (Signals{{600, SIGKILL}}));
  EXPECT_EQ(machine->forgotten_steps.back(), (std::pair{JobId(6), 0}));
  EXPECT_EQ(steps.running(JobId(6)), 0u);
  EXPECT_TRUE(machine->step_checkpoints.empty());
  steps.launched(JobId(7), 0, make_error(ErrorCode::kIo, "fork failed"), false, true);
  EXPECT_EQ(steps.running(JobId(7)), 0u);
}

TEST_F(NodeStepsTest, RelaysThatOutlivedTheAgentAreFoundAgainWithTheirJobs) {
  CheckpointScan scan;
  scan.live_steps = {StepCheckpoint{JobId(8), 0, 800, 800, 8000},
                     StepCheckpoint{JobId(9), 1, 900, 900, 9000}};
  scan.lost_steps = {StepCheckpoint{JobId(8), 1, 810, 810, 8100}};
  steps.readopt(scan, [](JobId job) { return job == JobId(8); });
  EXPECT_EQ(steps.running(JobId(8)), 1u);
  // Job 9 is gone: its step may not run on; the ended step's file goes.
  EXPECT_EQ(machine->group_signals, (Signals{{900, SIGKILL}}));
  EXPECT_EQ(machine->forgotten_steps,
            (std::vector<std::pair<JobId, std::int32_t>>{{JobId(9), 1}, {JobId(8), 1}}));
  // Not our child: polled.
  machine->alive.insert(800);
  EXPECT_TRUE(steps.gone_adopted().empty());
  machine->alive.erase(800);
  EXPECT_EQ(steps.gone_adopted(), std::vector<std::int64_t>{800});
  EXPECT_EQ(steps.ended(800), JobId(8));
  EXPECT_TRUE(steps.gone_adopted().empty());
}

}  // namespace
}  // namespace fairway::agent
