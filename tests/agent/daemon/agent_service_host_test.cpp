// AgentService against a fake AgentHost (agent_on_fake_host.h): no process, no file, no
// clock; launches, steps, stops, restarts and the lease, checked synchronously and exactly.
#include "tests/agent/daemon/agent_on_fake_host.h"

namespace fairway::agent {
namespace {

using namespace testing;

TEST_F(AgentOnFakeHost, ALaunchRunsIsCheckpointedEndsAndIsForgottenOnceAcknowledged) {
  send(launch(1), T(1));
  ASSERT_EQ(machine->launches.size(), 1u);
  EXPECT_EQ(machine->launches[0].program.argv, std::vector<std::string>{"/bin/true"});
  EXPECT_EQ(machine->launches[0].uid, 1001u);
  EXPECT_TRUE(reported(1).empty()) << "nothing runs until the host hands the launch back";
  launched(1, 100, T(1));
  EXPECT_EQ(reported(1), std::vector<JobState>{JobState::kRunning});
  ASSERT_TRUE(machine->checkpoints.contains(1));
  EXPECT_EQ(machine->checkpoints[1].pid, 100);
  EXPECT_EQ(machine->checkpoints[1].process_start_ticks, 1000u);
  exits(100, ProcessExit::exited(3), T(2));
  EXPECT_EQ(reported(1), std::vector<JobState>{JobState::kFailed});
  EXPECT_EQ(last[1].exit_code, 3);
  // Whatever it left in its group goes with it; its records stay until the Ack.
  EXPECT_EQ(machine->group_signals, (std::vector<std::pair<std::int64_t, int>>{{100, SIGKILL}}));
  EXPECT_TRUE(machine->forgotten.empty());
  send(wire::Ack{last[1].seq}, T(3));
  EXPECT_EQ(machine->forgotten, std::vector<JobId>{JobId(1)});
}

TEST_F(AgentOnFakeHost, ACancelDuringTheLaunchIsSentOnceItRunsAndAResendStartsNothing) {
  send(launch(2), T(1));
  send(launch(2), T(1));
  send(wire::SignalJob{JobId(2), SIGTERM, Duration::seconds(5)}, T(1));
  EXPECT_EQ(machine->launches.size(), 1u);
  EXPECT_TRUE(machine->group_signals.empty());
  launched(2, 200, T(2));
  EXPECT_EQ(machine->group_signals, (std::vector<std::pair<std::int64_t, int>>{{200, SIGTERM}}));
  service->on_timer(T(6));
  EXPECT_EQ(machine->group_signals.size(), 1u) << "the grace has not passed";
  service->on_timer(T(8));
  EXPECT_EQ(machine->group_signals.back(), (std::pair<std::int64_t, int>{200, SIGKILL}));
}

TEST_F(AgentOnFakeHost, PastItsLimitAJobIsTermedThenKilledAndEndsTimeout) {
  send(launch(3, 10), T(1));
  launched(3, 300, T(1));
  (void)reported(3);
  service->on_timer(T(10));
  EXPECT_TRUE(machine->group_signals.empty());
  service->on_timer(T(12));
  EXPECT_EQ(machine->group_signals, (std::vector<std::pair<std::int64_t, int>>{{300, SIGTERM}}));
  service->on_timer(T(18));
  EXPECT_EQ(machine->group_signals.back(), (std::pair<std::int64_t, int>{300, SIGKILL}));
  exits(300, ProcessExit::signalled(SIGKILL), T(18));
  EXPECT_EQ(reported(3), std::vector<JobState>{JobState::kTimeout});
}

TEST_F(AgentOnFakeHost, ARestartedAgentReadoptsWhatRunsAndReportsWhatEndedMeanwhile) {
  // Job 5 still runs; job 6 ended while no agent watched (its keeper recorded exit 0);
  // job 7 was stopped by its keeper for want of a lease; job 8 held another node's job.
  machine->at_start.live = {JobCheckpoint{JobId(5), 500, 500, T(-10), Duration::hours(1), {0}, {}, 5000}};
  machine->at_start.lost = {JobCheckpoint{JobId(6), 600, 600, T(-10), Duration::hours(1), {1}, {}, 6000},
                            JobCheckpoint{JobId(7), 700, 700, T(-10), Duration::hours(1), {2}, {}, 7000},
                            JobCheckpoint{JobId(8), 800, 800, T(-10), Duration::hours(1), {3}, {}, 8000}};
  machine->at_start.lost[2].extern_only = true;
  machine->exit_records[6] = ExitRecord{ProcessExit::exited(0), false};
  machine->exit_records[7] = ExitRecord{ProcessExit::signalled(SIGTERM), true};
  machine->alive = {500};
  service.reset();
  start();
  const auto* reg = std::get_if<wire::AgentRegister>(&register_frames.at(0));
  ASSERT_NE(reg, nullptr);
  ASSERT_EQ(reg->running.size(), 1u);
  EXPECT_EQ(reg->running[0].job, JobId(5));
  // Reports made before registration go out with it (resent from the outbox).
  service->on_timer(T(3));
  std::map<std::uint64_t, JobState> states;
  for (const wire::Message& m : decode_all()) {
    if (const auto* u = std::get_if<wire::JobStatusUpdate>(&m)) states[u->job.value()] = u->state;
  }
  EXPECT_EQ(states[6], JobState::kCompleted);
  EXPECT_EQ(states[7], JobState::kNodeFail);
  EXPECT_FALSE(states.contains(8)) << "a holder's end is not a job's";
  EXPECT_NE(std::find(machine->forgotten.begin(), machine->forgotten.end(), JobId(8)),
            machine->forgotten.end());
  // The adopted job is polled: once its process is gone, it is reported with its record.
  machine->exit_records[5] = ExitRecord{ProcessExit::exited(0), false};
  machine->alive.clear();
  service->on_timer(T(4));
  EXPECT_EQ(reported(5), std::vector<JobState>{JobState::kCompleted});
}

// Issue 33, item 5: each report names the run (LaunchJob.restarts) it is about, also from
// an agent restarted meanwhile, so that the coordinator never takes one run's end for another's.
TEST_F(AgentOnFakeHost, EveryReportNamesTheRunItIsAbout) {
  wire::LaunchJob l = launch(20);
  l.restarts = 2;
  send(l, T(1));
  launched(20, 2000, T(1));
  EXPECT_EQ(reported(20), std::vector<JobState>{JobState::kRunning});
  EXPECT_EQ(last[20].attempt, 2);
  EXPECT_EQ(machine->checkpoints[20].attempt, 2);
  exits(2000, ProcessExit::exited(1), T(2));
  EXPECT_EQ(reported(20), std::vector<JobState>{JobState::kFailed});
  EXPECT_EQ(last[20].attempt, 2);
  // Run 3 of the same job: its reports name 3.
  l.restarts = 3;
  send(l, T(3));
  launched(20, 2001, T(3));
  EXPECT_EQ(reported(20), std::vector<JobState>{JobState::kRunning});
  EXPECT_EQ(last[20].attempt, 3);

  // An agent restarted after run 0 of job 21 ended unwatched reports it as run 0's; a
  // checkpoint from before the field names no run.
  machine->at_start.lost = {JobCheckpoint{JobId(21), 2100, 2100, T(-10), Duration::hours(1), {1}, {}, 6000},
                            JobCheckpoint{JobId(22), 2200, 2200, T(-10), Duration::hours(1), {2}, {}, 6000}};
  machine->at_start.lost[0].attempt = 0;
  machine->exit_records[21] = ExitRecord{ProcessExit::exited(1), false};
  machine->exit_records[22] = ExitRecord{ProcessExit::exited(1), false};
  service.reset();
  start();
  service->on_timer(T(4));
  std::map<std::uint64_t, std::optional<std::int32_t>> attempts;
  for (const wire::Message& m : decode_all()) {
    if (const auto* u = std::get_if<wire::JobStatusUpdate>(&m)) attempts[u->job.value()] = u->attempt;
  }
  ASSERT_TRUE(attempts.contains(21));
  EXPECT_EQ(attempts[21], 0);
  ASSERT_TRUE(attempts.contains(22));
  EXPECT_EQ(attempts[22], std::nullopt);
}

TEST_F(AgentOnFakeHost, AHolderIsNeverReportedAndANewRunWaitsForItsEnd) {
  wire::LaunchJob holder = launch(9);
  holder.extern_only = true;
  holder.program = {};
  send(holder, T(1));
  ASSERT_EQ(machine->launches.size(), 1u);
  EXPECT_EQ(machine->launches[0].program.argv,
            (std::vector<std::string>{"/usr/lib/fairway/fairway-step", "--hold"}));
  EXPECT_EQ(machine->launches[0].program.stdout_path, "/dev/null");
  launched(9, 900, T(1));
  EXPECT_TRUE(reported(9).empty());
  EXPECT_TRUE(machine->checkpoints[9].extern_only);
  // The job stops; before the holder is reaped, the job is requeued and placed here.
  send(wire::SignalJob{JobId(9), SIGKILL, Duration()}, T(2));
  send(launch(9), T(2));
  EXPECT_EQ(machine->launches.size(), 1u) << "the new run waits for the holder";
  exits(900, ProcessExit::signalled(SIGKILL), T(3));
  EXPECT_TRUE(reported(9).empty()) << "the holder's end is not the new run's";
  ASSERT_EQ(machine->launches.size(), 2u);
  EXPECT_EQ(machine->launches[1].program.argv, std::vector<std::string>{"/bin/true"});
  launched(9, 901, T(3));
  EXPECT_EQ(reported(9), std::vector<JobState>{JobState::kRunning});
}

TEST_F(AgentOnFakeHost, AStepRunsAsTheJobsUserAndEndsWithTheJob) {
  send(launch(10), T(1));
  wire::LaunchStep step{JobId(10),
                        0,
                        "alice",
                        1001,
                        100,
                        {"hostname"},
                        {{"HOME", "/home/alice"}},
                        "/home/alice",
                        {"n1", "n2"},
                        {2, 1},
                        0,
                        1,
                        "tcp://10.0.0.9:4000",
                        "0123456789abcdef0123456789abcdef",
                        false,
                        "map_cpu:1,0",
                        "cyclic",
                        "",
                        {}};
  send(step, T(1));
  EXPECT_EQ(machine->launches.size(), 1u) << "a step that comes before its job runs waits for it";
  launched(10, 1000, T(1));
  ASSERT_EQ(machine->launches.size(), 2u);
  const LaunchRequest& relay = machine->launches[1];
  EXPECT_EQ(relay.step, 0);
  EXPECT_EQ(relay.uid, 1001u);
  EXPECT_EQ(relay.program.argv,
            (std::vector<std::string>{"/usr/lib/fairway/fairway-step", "--", "hostname"}));
  std::map<std::string, std::string> env(relay.program.env.begin(), relay.program.env.end());
  EXPECT_EQ(env[kStepEnvKey], step.io_key);
  EXPECT_EQ(env[kStepEnvTasks], "2,1");
  EXPECT_EQ(env[kStepEnvNodeIndex], "0");
  EXPECT_EQ(env[kStepEnvDir], "/home/alice");
  // srun's binding and distribution reach the relay as given.
  EXPECT_EQ(env[kStepEnvCpuBind], "map_cpu:1,0");
  EXPECT_EQ(env[kStepEnvDistribution], "cyclic");
  EXPECT_EQ(relay.program.working_dir, "/") << "the relay enters the step's directory itself";
  launched(10, 1010, T(2), 0);
  // A step for a job not held here starts nothing.
  send(wire::LaunchStep{JobId(99),
                        0,
                        "alice",
                        1001,
                        100,
                        {"x"},
                        {},
                        "/",
                        {"n1"},
                        {1},
                        0,
                        1,
                        "tcp://h:1",
                        "k",
                        false,
                        "",
                        "",
                        "",
                        {}},
       T(2));
  EXPECT_EQ(machine->launches.size(), 2u);
  // The script ends with its step still running (an srun left in the background): the
  // step gets SIGTERM and the grace, and the job holds its cores (unreported) meanwhile.
  machine->group_signals.clear();
  exits(1000, ProcessExit::exited(0), T(3));
  EXPECT_EQ(machine->group_signals,
            (std::vector<std::pair<std::int64_t, int>>{{1010, SIGTERM}, {1000, SIGTERM}}));
  EXPECT_TRUE(reported(10).size() == 1u) << "only its start: it is completing";
  EXPECT_EQ(service->running(), 1u);
  // The step's own end clears its record and reports the job, as its script ended.
  exits(1010, ProcessExit::exited(0), T(4));
  EXPECT_EQ(machine->forgotten_steps, (std::vector<std::pair<JobId, std::int32_t>>{{JobId(10), 0}}));
  EXPECT_EQ(reported(10), (std::vector<JobState>{JobState::kCompleted}));
  EXPECT_EQ(service->running(), 0u);
}

// A cancelled job's srun tasks get the cancel's SIGTERM and its grace, as its script does;
// they used to die at once with their srun, with no time to save their work.
TEST_F(AgentOnFakeHost, ACancelGivesTheStepsTasksTheGraceBeforeTheKill) {
  running_with_step(12, 1200, T(1));
  send(wire::SignalJob{JobId(12), SIGTERM, Duration::seconds(5)}, T(2));
  EXPECT_EQ(machine->group_signals,
            (std::vector<std::pair<std::int64_t, int>>{{1210, SIGTERM}, {1200, SIGTERM}}))
      << "the step's group first, then the script's";
  // The script dies of it at once; the step's tasks are still saving their work.
  exits(1200, ProcessExit::signalled(SIGTERM), T(3));
  EXPECT_TRUE(reported(12).empty()) << "completing: its cores stay held";
  service->on_timer(T(6));
  EXPECT_EQ(machine->group_signals.size(), 2u) << "within the grace nothing is killed";
  // A second stop cannot lengthen the grace.
  send(wire::SignalJob{JobId(12), SIGTERM, Duration::seconds(60)}, T(6));
  EXPECT_EQ(machine->group_signals.size(), 2u);
  service->on_timer(T(7));
  EXPECT_EQ(machine->group_signals.size(), 2u);
  service->on_timer(T(8));  // the cancel's KILL time (its grace, rounded up a second)
  EXPECT_EQ(machine->group_signals, (std::vector<std::pair<std::int64_t, int>>{
                                        {1210, SIGTERM}, {1200, SIGTERM}, {1210, SIGKILL}, {1200, SIGKILL}}));
  exits(1210, ProcessExit::signalled(SIGKILL), T(8));
  EXPECT_EQ(reported(12), (std::vector<JobState>{JobState::kCancelled}));
  EXPECT_EQ(last[12].signal, SIGTERM) << "the script's own end is the job's";
}

TEST_F(AgentOnFakeHost, ACompletingJobIsKilledAtOnceByAKillAndReportedEvenIfAStepIsNeverReaped) {
  running_with_step(13, 1300, T(1));
  exits(1300, ProcessExit::exited(0), T(2));
  // No step starts in a job whose script has ended.
  send(step_of(13, 1), T(2));
  EXPECT_EQ(machine->launches.size(), 2u);
  machine->group_signals.clear();
  send(wire::SignalJob{JobId(13), SIGKILL, Duration()}, T(2));
  EXPECT_EQ(machine->group_signals,
            (std::vector<std::pair<std::int64_t, int>>{{1310, SIGKILL}, {1300, SIGKILL}}));
  service->on_timer(T(5));
  EXPECT_TRUE(reported(13).empty());
  // Its relay's keeper never comes back: the job is reported all the same, its cores freed.
  service->on_timer(T(13));
  EXPECT_EQ(reported(13), (std::vector<JobState>{JobState::kCompleted}));
  EXPECT_EQ(service->running(), 0u);
  exits(1310, ProcessExit::signalled(SIGKILL), T(14));  // late: nothing more to say
  EXPECT_TRUE(reported(13).empty());
}

// srun outlives its script in the script's group while another node's tasks still write:
// the job is reported once that group is empty too (or killed at the grace's end).
TEST_F(AgentOnFakeHost, ACompletingJobWaitsForSrunInItsScriptsGroup) {
  running_with_step(15, 1500, T(1));
  send(wire::SignalJob{JobId(15), SIGTERM, Duration::seconds(5)}, T(2));
  machine->live_groups.insert(1500);  // srun, still serving the step
  exits(1500, ProcessExit::signalled(SIGTERM), T(2));
  exits(1510, ProcessExit::exited(0), T(3));
  service->on_timer(T(3));
  EXPECT_TRUE(reported(15).empty()) << "srun is still passing output on";
  machine->live_groups.clear();
  service->on_timer(T(4));
  EXPECT_EQ(reported(15), (std::vector<JobState>{JobState::kCancelled}));
}

// scancel's SIGTERM reaches every process of the script's group; the script ends at once, a
// worker of it is still in its SIGTERM handler: it gets the grace (Slurm's KillWait), not a
// SIGKILL the moment the script is gone (issue 35: it came 8 ms after the SIGTERM).
TEST_F(AgentOnFakeHost, ACancelGivesTheScriptsOtherProcessesTheGraceOnceTheScriptIsGone) {
  send(launch(17), T(1));
  launched(17, 1700, T(1));
  (void)reported(17);
  send(wire::SignalJob{JobId(17), SIGTERM, Duration::seconds(5)}, T(2));
  EXPECT_EQ(machine->group_signals, (std::vector<std::pair<std::int64_t, int>>{{1700, SIGTERM}}));
  machine->live_groups.insert(1700);  // the worker, saving its work
  exits(1700, ProcessExit::signalled(SIGTERM), T(2));
  service->on_timer(T(4));
  EXPECT_EQ(machine->group_signals, (std::vector<std::pair<std::int64_t, int>>{{1700, SIGTERM}}))
      << "no SIGKILL in the grace";
  EXPECT_TRUE(reported(17).empty()) << "completing: its cores stay held";
  machine->live_groups.clear();  // the worker finished its handler
  service->on_timer(T(5));
  EXPECT_EQ(reported(17), (std::vector<JobState>{JobState::kCancelled}));

  // One that never finishes is killed when the grace is over.
  send(launch(18), T(10));
  launched(18, 1800, T(10));
  (void)reported(18);
  machine->group_signals.clear();
  send(wire::SignalJob{JobId(18), SIGTERM, Duration::seconds(5)}, T(11));
  machine->live_groups.insert(1800);
  exits(1800, ProcessExit::signalled(SIGTERM), T(11));
  service->on_timer(T(15));
  EXPECT_EQ(machine->group_signals.size(), 1u);
  service->on_timer(T(17));
  EXPECT_EQ(machine->group_signals,
            (std::vector<std::pair<std::int64_t, int>>{{1800, SIGTERM}, {1800, SIGKILL}}));
  machine->live_groups.clear();
  service->on_timer(T(18));
  EXPECT_EQ(reported(18), (std::vector<JobState>{JobState::kCancelled}));
}

// A quick step (srun echo) can run and end before its launch is handed back: its end,
// reaped first, is kept for it, so that the job does not wait for a step long gone.
TEST_F(AgentOnFakeHost, AStepThatEndsBeforeItsLaunchIsHandedBackDoesNotHoldItsJob) {
  send(launch(16), T(1));
  launched(16, 1600, T(1));
  send(step_of(16, 0), T(1));
  exits(1610, ProcessExit::exited(0), T(1));  // reaped before the worker hands it back
  launched(16, 1610, T(1), 0);
  EXPECT_EQ(machine->forgotten_steps, (std::vector<std::pair<JobId, std::int32_t>>{{JobId(16), 0}}));
  (void)reported(16);
  send(wire::SignalJob{JobId(16), SIGTERM, Duration::seconds(5)}, T(2));
  exits(1600, ProcessExit::signalled(SIGTERM), T(2));
  EXPECT_EQ(reported(16), (std::vector<JobState>{JobState::kCancelled})) << "no step left to wait for";
}

// On a multi-node job's other node the coordinator frees the cores when the job ends,
// while the step's tasks there may still be in their grace: the next job's launch waits.
TEST_F(AgentOnFakeHost, ALaunchWaitsForTheCoresOfAJobStillStoppingHere) {
  wire::LaunchJob holder = launch(20);
  holder.extern_only = true;
  holder.cores = {0};
  send(holder, T(1));
  launched(20, 2000, T(1));
  send(step_of(20, 0), T(1));
  launched(20, 2010, T(1), 0);
  send(wire::SignalJob{JobId(20), SIGTERM, Duration::seconds(5)}, T(2));
  exits(2000, ProcessExit::signalled(SIGTERM), T(2));  // the holder goes; the step's tasks save
  wire::LaunchJob next = launch(24);
  next.cores = {0};
  send(next, T(3));
  EXPECT_EQ(machine->launches.size(), 2u) << "core 0 is still held";
  EXPECT_TRUE(reported(24).empty()) << "neither refused nor started";
  send(next, T(3));  // a resend changes nothing
  // srun starts a step the moment its job starts: here it waits with the job (it was
  // refused, and srun waited 60 s for a relay that never came).
  send(step_of(24, 0), T(3));
  EXPECT_EQ(machine->launches.size(), 2u);
  exits(2010, ProcessExit::exited(0), T(4));
  ASSERT_EQ(machine->launches.size(), 3u);
  EXPECT_EQ(machine->launches[2].job, JobId(24));
  EXPECT_TRUE(reported(20).empty()) << "a holder's end is not reported";
  launched(24, 2400, T(5));
  ASSERT_EQ(machine->launches.size(), 4u)
      << "the step that came while its job waited starts once the job runs";
  EXPECT_EQ(machine->launches[3].step, std::optional<std::int32_t>(0));
  launched(24, 2410, T(5), 0);

  // One stopped while it waits ends cancelled, never started.
  send(wire::SignalJob{JobId(24), SIGTERM, Duration::seconds(5)}, T(6));
  exits(2400, ProcessExit::signalled(SIGTERM), T(6));
  (void)reported(24);
  wire::LaunchJob third = launch(28);
  third.cores = {0};
  send(third, T(7));
  send(wire::SignalJob{JobId(28), SIGTERM, Duration::seconds(5)}, T(7));
  EXPECT_EQ(reported(28), std::vector<JobState>{JobState::kCancelled});
  exits(2410, ProcessExit::exited(0), T(8));
  EXPECT_EQ(machine->launches.size(), 4u) << "the dropped launch does not start";
  // With nothing stopping here, a conflicting launch is refused as before.
  wire::LaunchJob clash = launch(32);
  clash.cores = {0};
  wire::LaunchJob holder0 = launch(36);
  holder0.cores = {0};
  send(holder0, T(9));
  launched(36, 3600, T(9));
  send(clash, T(9));
  EXPECT_EQ(reported(32), std::vector<JobState>{JobState::kFailed});
}

// scancel --signal (not -b) reaches the steps' tasks as well as the script's group.
// srun's tasks outlive an agent restart: the restarted agent still gives them their job's
// cancel, its grace and its kill, and reports the job only once they are gone (it used to
// forget them and report the job while they ran on its cores).
TEST_F(AgentOnFakeHost, ARestartedAgentKeepsItsJobsStepsAndWaitsForThem) {
  running_with_step(14, 1400, T(1));
  const std::pair<std::uint64_t, std::int32_t> key{14, 0};
  ASSERT_TRUE(machine->step_checkpoints.contains(key)) << "the relay is checkpointed";
  EXPECT_EQ(machine->step_checkpoints[key], (StepCheckpoint{JobId(14), 0, 1410, 1410, 14100}));
  // The agent restarts: job 14 and its step still run. A step of job 15, whose job ended
  // while no agent watched, must not run on; one of job 14 that ended meanwhile is let go.
  machine->at_start.live = {machine->checkpoints[14]};
  machine->at_start.live_steps = {machine->step_checkpoints[key],
                                  StepCheckpoint{JobId(15), 0, 1510, 1510, 15100}};
  machine->at_start.lost_steps = {StepCheckpoint{JobId(14), 1, 1420, 1420, 14200}};
  machine->alive = {1400, 1410, 1510};
  machine->group_signals.clear();
  service.reset();
  start();
  seen_seqs.clear();  // the new agent numbers its reports afresh
  EXPECT_EQ(machine->group_signals, (std::vector<std::pair<std::int64_t, int>>{{1510, SIGKILL}}));
  EXPECT_EQ(machine->forgotten_steps,
            (std::vector<std::pair<JobId, std::int32_t>>{{JobId(15), 0}, {JobId(14), 1}}));
  machine->group_signals.clear();
  send(wire::SignalJob{JobId(14), SIGTERM, Duration::seconds(5)}, T(2));
  EXPECT_EQ(machine->group_signals,
            (std::vector<std::pair<std::int64_t, int>>{{1410, SIGTERM}, {1400, SIGTERM}}))
      << "the step's group first, as before the restart";
  // The adopted script is gone (polled); its step is still saving its work.
  machine->alive.erase(1400);
  service->on_timer(T(3));
  EXPECT_TRUE(reported(14).empty()) << "completing: its cores stay held";
  service->on_timer(T(8));
  EXPECT_EQ(machine->group_signals.back(), (std::pair<std::int64_t, int>{1400, SIGKILL}));
  EXPECT_NE(std::find(machine->group_signals.begin(), machine->group_signals.end(),
                      std::pair<std::int64_t, int>{1410, SIGKILL}),
            machine->group_signals.end());
  // The relay is not the new agent's child: its end is found by polling.
  machine->alive.erase(1410);
  service->on_timer(T(9));
  EXPECT_EQ(reported(14), (std::vector<JobState>{JobState::kCancelled}));
  EXPECT_FALSE(machine->step_checkpoints.contains(key));
  EXPECT_EQ(service->running(), 0u);
}

TEST_F(AgentOnFakeHost, ASignalForTheJobReachesItsSteps) {
  running_with_step(14, 1400, T(1));
  send(wire::SendSignal{JobId(14), SIGUSR1, false}, T(2));
  EXPECT_EQ(machine->group_signals,
            (std::vector<std::pair<std::int64_t, int>>{{1410, SIGUSR1}, {1400, SIGUSR1}}));
  send(wire::SendSignal{JobId(14), SIGUSR2, true}, T(2));
  EXPECT_EQ(machine->process_signals, (std::vector<std::pair<std::int64_t, int>>{{1400, SIGUSR2}}))
      << "-b: the script alone";
}

TEST_F(AgentOnFakeHost, ASilentCoordinatorGetsItsJobsStoppedAndTheLeaseIsPublished) {
  send(launch(11), T(1));
  launched(11, 1100, T(1));
  ASSERT_TRUE(machine->lease);
  EXPECT_EQ(*machine->lease, T(60)) << "heard at monotonic T(0), a 60 s lease";
  service->set_monotonic(T(61));
  service->on_timer(T(61));
  EXPECT_EQ(machine->group_signals, (std::vector<std::pair<std::int64_t, int>>{{1100, SIGTERM}}));
  exits(1100, ProcessExit::signalled(SIGTERM), T(62));
  EXPECT_EQ(reported(11), (std::vector<JobState>{JobState::kRunning, JobState::kNodeFail}));
}

}  // namespace
}  // namespace fairway::agent
