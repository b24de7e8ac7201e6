#include "agent/core/node_jobs.h"

#include <csignal>

#include <gtest/gtest.h>

namespace fairway::agent {
namespace {

namespace ev = node_event;
using K = HostActionKind;

Time at(std::int64_t s) {
  return Time::from_seconds(s);
}
const JobId kJob(7);
const JobId kOther(8);

// The launch workers handed the job back running.
ev::LaunchDone ok(JobId job) {
  return ev::LaunchDone{job, true, {}};
}

std::vector<K> kinds(const std::vector<HostAction>& actions) {
  std::vector<K> out;
  for (const auto& a : actions) out.push_back(a.kind);
  return out;
}

NodeJobPhase phase(const NodeJobs& n, JobId job) {
  const auto* r = n.find(job);
  EXPECT_NE(r, nullptr);
  return r ? r->phase : NodeJobPhase::kLaunching;
}

TEST(NodeJobsTest, AJobGoesFromLaunchToAckAndLeavesNothing) {
  NodeJobs n{"n1"};
  EXPECT_EQ(kinds(n.apply(ev::LaunchAsked{kJob, 0}, at(1))), std::vector{K::kStartProcess});
  EXPECT_EQ(phase(n, kJob), NodeJobPhase::kLaunching);
  const auto done = n.apply(ok(kJob), at(2));
  ASSERT_EQ(kinds(done), std::vector{K::kReport});
  EXPECT_EQ(done[0].state, JobState::kRunning);
  const auto exit = n.apply(ev::ProcessExited{kJob, JobState::kCompleted}, at(10));
  EXPECT_EQ(kinds(exit), (std::vector{K::kRemoveCgroup, K::kReleaseCores, K::kReport}));
  EXPECT_EQ(exit[2].state, JobState::kCompleted);
  EXPECT_EQ(phase(n, kJob), NodeJobPhase::kAwaitingAck);
  n.apply(ev::Reported{kJob, 42}, at(10));
  EXPECT_TRUE(n.apply(ev::AckReceived{41}, at(11)).empty());
  EXPECT_EQ(kinds(n.apply(ev::AckReceived{42}, at(11))), std::vector{K::kForgetJob});
  EXPECT_EQ(n.size(), 0u);
}

TEST(NodeJobsTest, AResentLaunchStartsNothingTwice) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kJob, 0}, at(1));
  EXPECT_TRUE(n.apply(ev::LaunchAsked{kJob, 0}, at(2)).empty());
  n.apply(ok(kJob), at(3));
  EXPECT_TRUE(n.apply(ev::LaunchAsked{kJob, 0}, at(4)).empty());
}

// srun starts a step the moment its job starts anywhere: one that comes before the job
// runs here waits for it (steps_before_start_), and is started right after the launch.
TEST(NodeJobsTest, StepsBeforeTheStartRunOnceTheJobRuns) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kJob, 0}, at(1));
  EXPECT_TRUE(n.apply(ev::StepArrived{kJob, 0}, at(1)).empty());
  EXPECT_TRUE(n.apply(ev::StepArrived{kJob, 1}, at(1)).empty());
  const auto done = n.apply(ok(kJob), at(2));
  ASSERT_EQ(kinds(done), (std::vector{K::kReport, K::kStartStep, K::kStartStep}));
  EXPECT_EQ(done[1].step, 0);
  EXPECT_EQ(done[2].step, 1);
  EXPECT_EQ(kinds(n.apply(ev::StepArrived{kJob, 2}, at(3))), std::vector{K::kStartStep});
}

TEST(NodeJobsTest, AStepForAJobNotHereOrEndingIsRefused) {
  NodeJobs n{"n1"};
  EXPECT_EQ(kinds(n.apply(ev::StepArrived{kJob, 0}, at(1))), std::vector{K::kRefuseStep});
  n.apply(ev::LaunchAsked{kJob, 0}, at(1));
  n.apply(ok(kJob), at(2));
  n.apply(ev::ProcessExited{kJob, JobState::kCompleted, true}, at(3));
  EXPECT_EQ(phase(n, kJob), NodeJobPhase::kCompleting);
  EXPECT_EQ(kinds(n.apply(ev::StepArrived{kJob, 1}, at(4))), std::vector{K::kRefuseStep});
}

TEST(NodeJobsTest, ACancelDuringTheLaunchIsSentOnceItRuns) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kJob, 0}, at(1));
  EXPECT_TRUE(n.apply(ev::KillAsked{kJob, SIGTERM, Duration::seconds(30)}, at(2)).empty());
  const auto done = n.apply(ok(kJob), at(3));
  ASSERT_EQ(kinds(done), (std::vector{K::kReport, K::kSignal}));
  EXPECT_EQ(done[1].signal, SIGTERM);
  EXPECT_EQ(done[1].grace, Duration::seconds(30));
}

// Issue 36: a cancel that came while the job was launching stops it as one that came while
// it ran: a requeued run that comes back before it ended waits for its end (it is no
// resend), and a launch wanting its cores waits for them instead of being refused.
TEST(NodeJobsTest, ACancelDuringTheLaunchMarksTheRunStopping) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kJob, 0}, at(1));
  n.apply(ev::KillAsked{kJob, SIGTERM, Duration::seconds(30)}, at(2));
  n.apply(ok(kJob), at(3));
  EXPECT_TRUE(n.find(kJob)->stopping);
  EXPECT_TRUE(n.any_stopping());
  // Its cores are wanted by another launch: it waits for them.
  n.apply(ev::LaunchAsked{kOther, 0}, at(4));
  EXPECT_TRUE(n.apply(ev::CoresTaken{kOther, "core 0 is taken"}, at(4)).empty());
  EXPECT_EQ(phase(n, kOther), NodeJobPhase::kWaitingForCores);
  // The requeued run came back here: it starts once this run has ended.
  EXPECT_TRUE(n.apply(ev::LaunchAsked{kJob, 1}, at(4)).empty());
  EXPECT_TRUE(n.find(kJob)->next_run_deferred);
  const auto end = n.apply(ev::ProcessExited{kJob, JobState::kCancelled}, at(5));
  ASSERT_EQ(kinds(end),
            (std::vector{K::kRemoveCgroup, K::kReleaseCores, K::kReport, K::kRetryLaunch, K::kRetryLaunch}));
  EXPECT_EQ(end[2].attempt, 0);
  EXPECT_EQ(end[3].job, kJob);
  EXPECT_EQ(end[4].job, kOther);
}

// A run is told from a resend by its attempt (LaunchJob.restarts, which every requeue
// raises): a new run that comes while a cancelled run is still being launched is no
// resend; it waits for that run's end, and starts then.
TEST(NodeJobsTest, ANewRunDuringACancelledLaunchStartsOnceThatRunEnded) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kJob, 0}, at(1));
  n.apply(ev::KillAsked{kJob, SIGTERM, Duration::seconds(30)}, at(2));
  EXPECT_TRUE(n.apply(ev::LaunchAsked{kJob, 1}, at(3)).empty());
  EXPECT_TRUE(n.find(kJob)->next_run_deferred);
  EXPECT_EQ(n.find(kJob)->attempt, 0);  // its reports are still about the run launched
  const auto done = n.apply(ok(kJob), at(4));
  ASSERT_EQ(kinds(done), (std::vector{K::kReport, K::kSignal}));
  EXPECT_EQ(done[0].attempt, 0);
  const auto end = n.apply(ev::ProcessExited{kJob, JobState::kCancelled}, at(5));
  ASSERT_EQ(kinds(end), (std::vector{K::kRemoveCgroup, K::kReleaseCores, K::kReport, K::kRetryLaunch}));
  EXPECT_EQ(end[2].attempt, 0);
  EXPECT_EQ(kinds(n.apply(ev::LaunchAsked{kJob, 1, false, true}, at(5))), std::vector{K::kStartProcess});
  EXPECT_EQ(n.find(kJob)->attempt, 1);
  EXPECT_EQ(phase(n, kJob), NodeJobPhase::kLaunching);
}

// The cancelled run's launch failed: it never ran, and the new run starts at once.
TEST(NodeJobsTest, ANewRunWhoseCancelledRunsLaunchFailedStartsAtOnce) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kJob, 0}, at(1));
  n.apply(ev::KillAsked{kJob, SIGTERM, Duration::seconds(30)}, at(2));
  n.apply(ev::LaunchAsked{kJob, 1}, at(3));
  const auto failed = n.apply(ev::LaunchDone{kJob, false, "no such user"}, at(4));
  ASSERT_EQ(kinds(failed), (std::vector{K::kReleaseCores, K::kRemoveCgroup, K::kReport, K::kRetryLaunch}));
  EXPECT_EQ(failed[2].attempt, 0);
  EXPECT_EQ(kinds(n.apply(ev::LaunchAsked{kJob, 1, false, true}, at(4))), std::vector{K::kStartProcess});
  EXPECT_EQ(n.find(kJob)->attempt, 1);
}

// A run still waiting for its cores never ran here: a new run of the job takes its place.
TEST(NodeJobsTest, ANewRunReplacesARunStillWaitingForItsCores) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kOther, 0}, at(1));
  n.apply(ok(kOther), at(2));
  n.apply(ev::KillAsked{kOther, SIGTERM, Duration::seconds(30)}, at(3));
  n.apply(ev::LaunchAsked{kJob, 0}, at(4));
  n.apply(ev::CoresTaken{kJob, "core 0 is taken"}, at(4));
  EXPECT_EQ(kinds(n.apply(ev::LaunchAsked{kJob, 1}, at(5))), std::vector{K::kStartProcess});
  EXPECT_EQ(phase(n, kJob), NodeJobPhase::kLaunching);
  EXPECT_EQ(n.find(kJob)->attempt, 1);
}

// The same run asked again while it runs is a resend; a later attempt is a new run, which
// waits for this run's end (never two runs of one job here at once).
TEST(NodeJobsTest, ANewRunOfARunningJobIsNoResendAndWaitsForItsEnd) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kJob, 2}, at(1));
  n.apply(ok(kJob), at(2));
  EXPECT_TRUE(n.apply(ev::LaunchAsked{kJob, 2}, at(3)).empty());
  EXPECT_FALSE(n.find(kJob)->next_run_deferred);
  EXPECT_TRUE(n.apply(ev::LaunchAsked{kJob, 3}, at(4)).empty());
  EXPECT_TRUE(n.find(kJob)->next_run_deferred);
  // Asked again, it still waits; the run here is still run 2.
  EXPECT_TRUE(n.apply(ev::LaunchAsked{kJob, 3}, at(5)).empty());
  EXPECT_EQ(n.find(kJob)->attempt, 2);
  const auto end = n.apply(ev::ProcessExited{kJob, JobState::kCompleted}, at(6));
  ASSERT_EQ(kinds(end), (std::vector{K::kRemoveCgroup, K::kReleaseCores, K::kReport, K::kRetryLaunch}));
  EXPECT_EQ(end[2].attempt, 2);
  EXPECT_EQ(kinds(n.apply(ev::LaunchAsked{kJob, 3, false, true}, at(6))), std::vector{K::kStartProcess});
  EXPECT_EQ(n.find(kJob)->attempt, 3);
}

// A stop that comes once a new run waits is for that run (the coordinator's stops for the
// run here came before the new run's launch): it is cancelled before it started here, and
// the run here, stopped already, is not followed by it.
TEST(NodeJobsTest, AStopWhileANewRunWaitsCancelsThatRunBeforeItStarts) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kJob, 0}, at(1));
  n.apply(ev::KillAsked{kJob, SIGTERM, Duration::seconds(30)}, at(2));
  n.apply(ev::LaunchAsked{kJob, 1}, at(3));
  const auto stop = n.apply(ev::KillAsked{kJob, SIGTERM, Duration::seconds(30)}, at(4));
  ASSERT_EQ(kinds(stop), std::vector{K::kReport});
  EXPECT_EQ(stop[0].state, JobState::kCancelled);
  EXPECT_EQ(stop[0].attempt, 1);
  EXPECT_EQ(stop[0].reason, "stopped before it started on node n1");
  EXPECT_FALSE(n.find(kJob)->next_run_deferred);
  EXPECT_EQ(kinds(n.apply(ok(kJob), at(5))), (std::vector{K::kReport, K::kSignal}));
  const auto end = n.apply(ev::ProcessExited{kJob, JobState::kCancelled}, at(6));
  ASSERT_EQ(kinds(end), (std::vector{K::kRemoveCgroup, K::kReleaseCores, K::kReport}));
  EXPECT_EQ(end[2].attempt, 0);
  // A holder's new run is dropped without a report: the job's end is its first node's.
  n.apply(ev::LaunchAsked{kOther, 0, true}, at(7));
  n.apply(ok(kOther), at(7));
  n.apply(ev::KillAsked{kOther, SIGTERM, Duration::seconds(30)}, at(8));
  n.apply(ev::LaunchAsked{kOther, 1, true}, at(8));
  EXPECT_EQ(kinds(n.apply(ev::KillAsked{kOther, SIGKILL, Duration::seconds(0)}, at(9))),
            std::vector{K::kSignal});
  EXPECT_FALSE(n.find(kOther)->next_run_deferred);
}

TEST(NodeJobsTest, AFailedLaunchFreesItsCoresAndReportsWhy) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kJob, 0}, at(1));
  n.apply(ev::StepArrived{kJob, 0}, at(1));
  const auto done = n.apply(ev::LaunchDone{kJob, false, "no such user"}, at(2));
  ASSERT_EQ(kinds(done), (std::vector{K::kReleaseCores, K::kRemoveCgroup, K::kReport}));
  EXPECT_EQ(done[2].state, JobState::kFailed);
  EXPECT_EQ(done[2].reason, "launch failed on node n1: no such user");
  EXPECT_EQ(n.find(kJob), nullptr);  // its early steps went with it
}

// The coordinator freed cores whose job is still stopping here: the launch waits, and is
// asked again when that job ends; stopped meanwhile, it is reported cancelled.
TEST(NodeJobsTest, ALaunchWaitsForTheCoresOfAStoppingJob) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kOther, 0}, at(1));
  n.apply(ok(kOther), at(2));
  n.apply(ev::KillAsked{kOther, SIGTERM, Duration::seconds(30)}, at(3));
  EXPECT_EQ(kinds(n.apply(ev::LaunchAsked{kJob, 0}, at(4))), std::vector{K::kStartProcess});
  EXPECT_TRUE(n.apply(ev::CoresTaken{kJob, "core 0 is taken"}, at(4)).empty());
  EXPECT_EQ(phase(n, kJob), NodeJobPhase::kWaitingForCores);
  // The coordinator resends it: still waiting, nothing started.
  EXPECT_TRUE(n.apply(ev::LaunchAsked{kJob, 0}, at(4)).empty());
  n.apply(ev::StepArrived{kJob, 3}, at(4));
  const auto end = n.apply(ev::ProcessExited{kOther, JobState::kCancelled}, at(5));
  ASSERT_EQ(kinds(end), (std::vector{K::kRemoveCgroup, K::kReleaseCores, K::kReport, K::kRetryLaunch}));
  EXPECT_EQ(end[3].job, kJob);
  const auto retry = n.apply(ev::LaunchAsked{kJob, 0, false, true}, at(5));
  EXPECT_EQ(kinds(retry), std::vector{K::kStartProcess});
  EXPECT_EQ(kinds(n.apply(ok(kJob), at(6))), (std::vector{K::kReport, K::kStartStep}));
}

TEST(NodeJobsTest, AStopBeforeTheCoresCameFreeReportsItCancelled) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kOther, 0}, at(1));
  n.apply(ok(kOther), at(2));
  n.apply(ev::KillAsked{kOther, SIGTERM, Duration::seconds(30)}, at(3));
  n.apply(ev::LaunchAsked{kJob, 0}, at(4));
  n.apply(ev::CoresTaken{kJob, "core 0 is taken"}, at(4));
  const auto stop = n.apply(ev::KillAsked{kJob, SIGTERM, Duration::seconds(30)}, at(5));
  ASSERT_EQ(kinds(stop), std::vector{K::kReport});
  EXPECT_EQ(stop[0].state, JobState::kCancelled);
  EXPECT_EQ(stop[0].reason, "stopped before it started on node n1");
  EXPECT_EQ(n.find(kJob), nullptr);
}

TEST(NodeJobsTest, TakenCoresWithNothingStoppingRefuseTheLaunch) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kJob, 3}, at(1));
  const auto refused = n.apply(ev::CoresTaken{kJob, "core 0 is taken"}, at(1));
  ASSERT_EQ(kinds(refused), std::vector{K::kReport});
  EXPECT_EQ(refused[0].state, JobState::kFailed);
  EXPECT_EQ(refused[0].reason, "node n1 refused the launch: core 0 is taken");
  EXPECT_EQ(refused[0].attempt, 3);
  EXPECT_EQ(n.find(kJob), nullptr);
}

// A requeue that comes back to this node while the last run is being stopped: the new
// run starts once the old one ended, so that the old end is not taken for the new run's.
TEST(NodeJobsTest, ANewRunOfAStoppingJobWaitsForItsEnd) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kJob, 0}, at(1));
  n.apply(ok(kJob), at(2));
  n.apply(ev::KillAsked{kJob, SIGTERM, Duration::seconds(30)}, at(3));
  EXPECT_TRUE(n.apply(ev::LaunchAsked{kJob, 1}, at(4)).empty());
  const auto end = n.apply(ev::ProcessExited{kJob, JobState::kCancelled}, at(5));
  EXPECT_EQ(kinds(end).back(), K::kRetryLaunch);
  n.apply(ev::Reported{kJob, 9}, at(5));
  EXPECT_EQ(kinds(n.apply(ev::LaunchAsked{kJob, 1, false, true}, at(5))), std::vector{K::kStartProcess});
  EXPECT_EQ(n.find(kJob)->attempt, 1);
  // The old run's Ack no longer names this run: its spool stays.
  EXPECT_TRUE(n.apply(ev::AckReceived{9}, at(6)).empty());
  EXPECT_EQ(phase(n, kJob), NodeJobPhase::kLaunching);
}

// Slurm's completing: the script ended while steps still run; reported once they are gone.
TEST(NodeJobsTest, ACompletingJobIsReportedOnceItsStepsAreGone) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kJob, 0}, at(1));
  n.apply(ok(kJob), at(2));
  EXPECT_TRUE(n.apply(ev::ProcessExited{kJob, JobState::kFailed, true}, at(3)).empty());
  const auto kill = n.apply(ev::KillAsked{kJob, SIGKILL, Duration::seconds(0)}, at(4));
  EXPECT_EQ(kinds(kill), std::vector{K::kSignal});
  const auto end = n.apply(ev::StepsGone{kJob}, at(5));
  ASSERT_EQ(kinds(end), (std::vector{K::kRemoveCgroup, K::kReleaseCores, K::kReport}));
  EXPECT_EQ(end[2].state, JobState::kFailed);
}

TEST(NodeJobsTest, AHolderIsForgottenWithoutAReport) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kJob, 0, true}, at(1));
  EXPECT_TRUE(n.apply(ok(kJob), at(2)).empty());
  EXPECT_EQ(kinds(n.apply(ev::ProcessExited{kJob, JobState::kCompleted}, at(3))),
            (std::vector{K::kRemoveCgroup, K::kReleaseCores, K::kForgetJob}));
  EXPECT_EQ(n.size(), 0u);
}

// A job whose steps are in their grace stops by itself: a new run of it waits for its
// end, and a launch whose cores it still holds waits for them.
TEST(NodeJobsTest, ACompletingJobHoldsBackANewRunAndALaunchForItsCores) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kOther, 0}, at(1));
  n.apply(ok(kOther), at(2));
  n.apply(ev::ProcessExited{kOther, JobState::kCompleted, true}, at(3));
  EXPECT_TRUE(n.any_stopping());
  EXPECT_TRUE(n.apply(ev::LaunchAsked{kOther, 1}, at(4)).empty());
  EXPECT_TRUE(n.find(kOther)->next_run_deferred);
  n.apply(ev::LaunchAsked{kJob, 0}, at(4));
  EXPECT_TRUE(n.apply(ev::CoresTaken{kJob, "core 0 is taken"}, at(4)).empty());
  const auto end = n.apply(ev::StepsGone{kOther}, at(5));
  ASSERT_EQ(kinds(end),
            (std::vector{K::kRemoveCgroup, K::kReleaseCores, K::kReport, K::kRetryLaunch, K::kRetryLaunch}));
  EXPECT_EQ(end[3].job, kOther);
  EXPECT_EQ(end[4].job, kJob);
}

// Every report names the run it is about; a job re-adopted from a checkpoint older than
// the field names none.
TEST(NodeJobsTest, ReportsNameTheirRun) {
  NodeJobs n{"n1"};
  n.apply(ev::LaunchAsked{kJob, 2}, at(1));
  const auto done = n.apply(ok(kJob), at(2));
  ASSERT_EQ(kinds(done), std::vector{K::kReport});
  EXPECT_EQ(done[0].attempt, 2);
  n.apply(ev::Readopted{kOther, std::nullopt}, at(2));
  EXPECT_EQ(phase(n, kOther), NodeJobPhase::kRunning);
  const auto end = n.apply(ev::ProcessExited{kOther, JobState::kFailed}, at(3));
  ASSERT_EQ(kinds(end), (std::vector{K::kRemoveCgroup, K::kReleaseCores, K::kReport}));
  EXPECT_EQ(end[2].attempt, std::nullopt);
}

// Found ended at the agent's start: its end is reported, and its files go with the Ack.
TEST(NodeJobsTest, AJobThatEndedWhileTheAgentWasAwayAwaitsItsAck) {
  NodeJobs n{"n1"};
  EXPECT_TRUE(n.apply(ev::Readopted{kJob, 1, false, true}, at(1)).empty());
  EXPECT_EQ(phase(n, kJob), NodeJobPhase::kAwaitingAck);
  n.apply(ev::Reported{kJob, 5}, at(1));
  EXPECT_EQ(kinds(n.apply(ev::StepArrived{kJob, 0}, at(1))), std::vector{K::kRefuseStep});
  EXPECT_TRUE(n.apply(ev::KillAsked{kJob, SIGTERM, Duration::seconds(1)}, at(1)).empty());
  EXPECT_EQ(kinds(n.apply(ev::AckReceived{5}, at(2))), std::vector{K::kForgetJob});
  EXPECT_EQ(n.size(), 0u);
}

TEST(NodeJobsTest, TheLifecycleTableHoldsOnlyForwardMoves) {
  EXPECT_TRUE(node_job_transition_allowed(NodeJobPhase::kLaunching, NodeJobPhase::kRunning));
  EXPECT_FALSE(node_job_transition_allowed(NodeJobPhase::kRunning, NodeJobPhase::kLaunching));
  EXPECT_FALSE(node_job_transition_allowed(NodeJobPhase::kCompleting, NodeJobPhase::kRunning));
  EXPECT_FALSE(node_job_transition_allowed(NodeJobPhase::kAwaitingAck, NodeJobPhase::kRunning));
  EXPECT_TRUE(node_job_transition_allowed(NodeJobPhase::kAwaitingAck, NodeJobPhase::kLaunching));
}

}  // namespace
}  // namespace fairway::agent
