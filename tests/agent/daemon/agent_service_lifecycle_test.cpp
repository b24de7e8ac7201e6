// AgentService on the fake host (agent_on_fake_host.h), as event sequences with no process
// and no sleep: a keeper reaped before its launch is handed back, a launch the node cannot
// carry out, the fence meeting a job's own end, and what the jobs' cgroups and the GPUs'
// device nodes (behind AgentHost) make of a job: its limits, what it used, an OOM kill.
#include "tests/agent/daemon/agent_on_fake_host.h"

namespace fairway::agent {
namespace {

using namespace testing;

// The loop reaps first (a SIGCHLD came before the completion): the keeper's exit has no
// job yet, and is the job's once the launch is handed back.
TEST_F(AgentOnFakeHost, AJobThatEndsBeforeItsLaunchIsHandedBackKeepsItsExitCode) {
  send(launch(1), T(1));
  exits(100, ProcessExit::exited(3), T(1));
  EXPECT_TRUE(reported(1).empty());
  machine->finished.push_back({JobId(1), std::nullopt, LaunchedProcess{100, 100, {}}});
  service->on_launches_done(T(1));
  EXPECT_EQ(reported(1), (std::vector<JobState>{JobState::kRunning, JobState::kFailed}));
  EXPECT_EQ(last[1].exit_code, 3);
  EXPECT_EQ(service->running(), 0u);
}

TEST_F(AgentOnFakeHost, ALaunchTheNodeCannotCarryOutIsReportedWithItsReasonAndFreesItsCores) {
  send(launch(4), T(1));
  machine->finished.push_back(
      {JobId(4), std::nullopt, make_error(ErrorCode::kIo, "chdir /home/alice/gone: no such directory")});
  service->on_launches_done(T(1));
  EXPECT_EQ(reported(4), std::vector<JobState>{JobState::kFailed});
  EXPECT_EQ(last[4].reason, "launch failed on node n1: chdir /home/alice/gone: no such directory");
  EXPECT_EQ(machine->removed_cgroups, std::vector<JobId>{JobId(4)});
  // Its core is free again: the next job on it starts.
  send(launch(8), T(2));
  ASSERT_EQ(machine->launches.size(), 2u);
  launched(8, 800, T(2));
  EXPECT_EQ(reported(8), std::vector<JobState>{JobState::kRunning});
}

TEST_F(AgentOnFakeHost, ALaunchWhoseCgroupCannotBeMadeFailsBeforeAnythingStarts) {
  machine->cgroup_error = "cpuset.cpus: permission denied";
  send(launch(1), T(1));
  EXPECT_TRUE(machine->launches.empty());
  EXPECT_EQ(reported(1), std::vector<JobState>{JobState::kFailed});
  EXPECT_EQ(last[1].reason, "launch failed on node n1: cpuset.cpus: permission denied");
  machine->cgroup_error.reset();
  send(launch(5), T(2));  // the same core
  EXPECT_EQ(machine->launches.size(), 1u);
}

// The coordinator is silent past the lease: the job is stopped. One that ended well as
// the fence came is done (running it again would run it twice); one the fence stopped is
// node_fail, for the coordinator to run again.
TEST_F(AgentOnFakeHost, TheFenceStopsJobsAndOneThatEndedWellMeanwhileIsCompleted) {
  send(launch(6), T(1));
  launched(6, 600, T(1));
  send(launch(7), T(1));
  launched(7, 700, T(1));
  (void)reported(6);
  (void)reported(7);
  service->set_monotonic(T(1000));
  service->on_timer(T(1000));
  std::set<std::pair<std::int64_t, int>> signalled(machine->group_signals.begin(),
                                                   machine->group_signals.end());
  EXPECT_EQ(signalled, (std::set<std::pair<std::int64_t, int>>{{600, SIGTERM}, {700, SIGTERM}}));
  exits(600, ProcessExit::exited(0), T(1000));
  EXPECT_EQ(reported(6), std::vector<JobState>{JobState::kCompleted});
  exits(700, ProcessExit::signalled(SIGTERM), T(1001));
  EXPECT_EQ(reported(7), std::vector<JobState>{JobState::kNodeFail});
}

// The kernel killed it at its memory limit: out_of_memory, with what its cgroup counted,
// and its cgroup goes.
TEST_F(AgentOnFakeHost, AJobKilledAtItsMemoryLimitEndsOutOfMemoryWithWhatItsCgroupCounted) {
  wire::LaunchJob l = launch(1);
  l.memory_limit_bytes = std::int64_t{512} << 20;
  send(l, T(1));
  ASSERT_EQ(machine->cgroup_limits.size(), 1u);
  EXPECT_EQ(machine->cgroup_limits[0].job, JobId(1));
  EXPECT_EQ(machine->cgroup_limits[0].memory_bytes, l.memory_limit_bytes);
  launched(1, 100, T(1));
  (void)reported(1);
  machine->usage[1] = JobUsage{std::int64_t{1} << 29, 1234, 2};
  exits(100, ProcessExit::signalled(SIGKILL), T(2));
  EXPECT_EQ(reported(1), std::vector<JobState>{JobState::kOutOfMemory});
  EXPECT_EQ(last[1].reason,
            "out of memory: the kernel killed 2 of its processes at its limit of 512 MiB on node n1");
  EXPECT_EQ(last[1].peak_memory_bytes, std::int64_t{1} << 29);
  EXPECT_EQ(last[1].cpu_time_ms, 1234);
  EXPECT_EQ(machine->removed_cgroups, std::vector<JobId>{JobId(1)});
}

// A step's relay joins its job's cgroup, held to the job's limits.
TEST_F(AgentOnFakeHost, AStepIsHeldToItsJobsCgroup) {
  wire::LaunchJob l = launch(2);
  l.memory_limit_bytes = std::int64_t{1} << 30;
  send(l, T(1));
  launched(2, 200, T(1));
  send(step_of(2, 0), T(1));
  ASSERT_EQ(machine->cgroup_limits.size(), 2u);
  EXPECT_EQ(machine->cgroup_limits[1].job, JobId(2));
  EXPECT_EQ(machine->cgroup_limits[1].memory_bytes, l.memory_limit_bytes);
}

// A job may open only the GPUs it holds: the others' device nodes are denied in its cgroup.
TEST_F(AgentOnFakeHost, AJobIsDeniedTheDevicesOfTheGpusItDoesNotHold) {
  node.topology = NodeTopology::uniform("n1", 1, 4, 2, "a100");
  node.gpus = {GpuIdentity{"NVIDIA", "A100", "0000:01:00.0", "0"},
               GpuIdentity{"NVIDIA", "A100", "0000:02:00.0", "1"}};
  machine->gpu_devices = {{DeviceNumber{195, 0}}, {DeviceNumber{195, 1}}};
  service.reset();
  start();
  wire::LaunchJob l = launch(1);
  l.gpus = {1};
  send(l, T(1));
  ASSERT_EQ(machine->cgroup_limits.size(), 1u);
  EXPECT_EQ(machine->cgroup_limits[0].denied_devices, std::vector<DeviceNumber>{(DeviceNumber{195, 0})});
  ASSERT_EQ(machine->launches.size(), 1u);
  EXPECT_EQ(machine->launches[0].gpu_visible_ids, std::vector<std::string>{"1"});
}

// [agent] require_enforcement: an agent whose host has no cgroups does not start.
TEST_F(AgentOnFakeHost, ANodeThatMustEnforceLimitsDoesNotStartWithoutCgroups) {
  EXPECT_EQ(std::get<wire::AgentRegister>(register_frames.at(0)).enforcement, "affinity only: a fake host");
  AgentOptions o = options;
  o.require_enforcement = true;
  auto refused = AgentService::start(node, o, T(0), std::make_unique<FakeHost>(machine));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_NE(refused.error().message.find("affinity only: a fake host"), std::string::npos)
      << refused.error().message;
  machine->cgroups = true;
  EXPECT_TRUE(AgentService::start(node, o, T(0), std::make_unique<FakeHost>(machine)));
}

// Issue 36: a cancel that came while the job was being launched stops the run it reaches:
// a requeued run that comes back before that run has ended is no resend, and starts once
// the cancelled run's end is reported.
TEST_F(AgentOnFakeHost, ACancelDuringTheLaunchStopsTheRunAndARequeueWaitsForItsEnd) {
  send(launch(6), T(1));
  send(wire::SignalJob{JobId(6), SIGTERM, Duration::seconds(5)}, T(1));
  launched(6, 600, T(2));
  EXPECT_EQ(machine->group_signals, (std::vector<std::pair<std::int64_t, int>>{{600, SIGTERM}}));
  EXPECT_EQ(reported(6), std::vector<JobState>{JobState::kRunning});
  // The coordinator requeued it, and run 1 came back to this node while run 0 stops.
  wire::LaunchJob again = launch(6);
  again.restarts = 1;
  send(again, T(3));
  EXPECT_EQ(machine->launches.size(), 1u);
  exits(600, ProcessExit::signalled(SIGTERM), T(4));
  EXPECT_EQ(reported(6), std::vector<JobState>{JobState::kCancelled});
  EXPECT_EQ(last[6].attempt, 0);
  ASSERT_EQ(machine->launches.size(), 2u);
  launched(6, 601, T(5));
  EXPECT_EQ(reported(6), std::vector<JobState>{JobState::kRunning});
  EXPECT_EQ(last[6].attempt, 1);
}

// A new run of the job (the coordinator requeued it and placed it here again) that comes
// while the cancelled run is still being launched is no resend: the cancelled run goes on
// as it was launched (its checkpoint names it), and the new run starts once its end is
// reported.
TEST_F(AgentOnFakeHost, ANewRunDuringACancelledLaunchStartsOnceThatRunEnded) {
  send(launch(6), T(1));
  send(wire::SignalJob{JobId(6), SIGTERM, Duration::seconds(5)}, T(1));
  wire::LaunchJob again = launch(6, 900);
  again.restarts = 1;
  send(again, T(2));
  EXPECT_EQ(machine->launches.size(), 1u);
  launched(6, 600, T(3));
  EXPECT_EQ(machine->group_signals, (std::vector<std::pair<std::int64_t, int>>{{600, SIGTERM}}));
  EXPECT_EQ(reported(6), std::vector<JobState>{JobState::kRunning});
  EXPECT_EQ(last[6].attempt, 0);
  ASSERT_TRUE(machine->checkpoints.contains(6));
  EXPECT_EQ(machine->checkpoints[6].attempt, 0);
  EXPECT_EQ(machine->checkpoints[6].time_limit, Duration::seconds(600));
  exits(600, ProcessExit::signalled(SIGTERM), T(4));
  EXPECT_EQ(reported(6), std::vector<JobState>{JobState::kCancelled});
  EXPECT_EQ(last[6].attempt, 0);
  ASSERT_EQ(machine->launches.size(), 2u);
  launched(6, 601, T(5));
  EXPECT_EQ(reported(6), std::vector<JobState>{JobState::kRunning});
  EXPECT_EQ(last[6].attempt, 1);
  EXPECT_EQ(machine->checkpoints[6].attempt, 1);
  EXPECT_EQ(machine->checkpoints[6].time_limit, Duration::seconds(900));
}

// The new run waiting for the cancelled run's end is cancelled itself (scancel after the
// requeue): it is reported cancelled, naming its run, and never starts here.
TEST_F(AgentOnFakeHost, ANewRunCancelledWhileItWaitsNeverStarts) {
  send(launch(6), T(1));
  send(wire::SignalJob{JobId(6), SIGTERM, Duration::seconds(5)}, T(1));
  wire::LaunchJob again = launch(6);
  again.restarts = 1;
  send(again, T(2));
  send(wire::SignalJob{JobId(6), SIGTERM, Duration::seconds(5)}, T(3));
  EXPECT_EQ(reported(6), std::vector<JobState>{JobState::kCancelled});
  EXPECT_EQ(last[6].attempt, 1);
  EXPECT_EQ(last[6].reason, "stopped before it started on node n1");
  launched(6, 600, T(4));
  exits(600, ProcessExit::signalled(SIGTERM), T(5));
  EXPECT_EQ(reported(6), (std::vector<JobState>{JobState::kRunning, JobState::kCancelled}));
  EXPECT_EQ(last[6].attempt, 0);
  EXPECT_EQ(machine->launches.size(), 1u);
}

}  // namespace
}  // namespace fairway::agent
