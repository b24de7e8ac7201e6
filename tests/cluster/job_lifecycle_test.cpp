// A job's life through both daemons at once (ClusterHarness): submitted to the coordinator,
// launched by an agent on a fake host, ended by its process, a cancel, its limit, a lost
// node or a coordinator crash; each test reads the outcome as a user would (the job's view).
#include <gtest/gtest.h>

#include <csignal>

#include "tests/support/cluster_harness.h"

namespace fairway::testing {
namespace {

TEST(JobLifecycle, ABatchJobRunsOnANodeCompletesAndIsForgottenByItsAgent) {
  ClusterHarness cluster(1);
  const JobId id = cluster.submit();
  EXPECT_EQ(cluster.state(id), JobState::kRunning);
  ASSERT_EQ(cluster.head_of(id), "n1");
  cluster.exits(id, ProcessExit::exited(0), "n1");
  const wire::JobView v = cluster.view(id);
  EXPECT_EQ(v.state, JobState::kCompleted);
  EXPECT_EQ(v.exit_code, 0);
  // The coordinator acknowledged the end: the agent dropped its records of the job.
  const auto& forgotten = cluster.machine("n1").forgotten;
  EXPECT_NE(std::find(forgotten.begin(), forgotten.end(), id), forgotten.end());
}

TEST(JobLifecycle, AFailingScriptEndsFailedWithItsExitCode) {
  ClusterHarness cluster(1);
  const JobId id = cluster.submit();
  cluster.exits(id, ProcessExit::exited(3), "n1");
  const wire::JobView v = cluster.view(id);
  EXPECT_EQ(v.state, JobState::kFailed);
  EXPECT_EQ(v.exit_code, 3);
}

TEST(JobLifecycle, ACancelSignalsTheJobsNodeAndItsCoresGoToTheNextJob) {
  ClusterHarness cluster(1);
  const JobId first = cluster.submit(4);
  const JobId second = cluster.submit(4);
  EXPECT_EQ(cluster.state(first), JobState::kRunning);
  EXPECT_EQ(cluster.state(second), JobState::kPending);
  ASSERT_TRUE(cluster.control(wire::JobAction::kCancel, first).has_value());
  EXPECT_EQ(cluster.state(second), JobState::kPending)
      << "its cores are not free until the job's processes end";
  cluster.signalled_die(SIGTERM);
  EXPECT_EQ(cluster.state(first), JobState::kCancelled);
  EXPECT_EQ(cluster.state(second), JobState::kRunning);
}

TEST(JobLifecycle, AUsersCancelOfAnotherUsersJobIsRefusedAndTheJobRunsOn) {
  ClusterHarness cluster(1);
  const JobId id = cluster.submit();
  // Root's job, which alice (not an admin) may not touch.
  wire::SubmitRequest r;
  r.spec.resources.cores = 1;
  r.spec.time_limit = Duration::minutes(10);
  r.program.argv = {"/bin/true"};
  r.program.working_dir = "/tmp";
  auto m = cluster.ask(r, kRoot);
  ASSERT_TRUE(std::holds_alternative<wire::SubmitReply>(m));
  const JobId roots = std::get<wire::SubmitReply>(m).job;
  EXPECT_FALSE(cluster.control(wire::JobAction::kCancel, roots, kAlice).has_value());
  EXPECT_EQ(cluster.state(roots), JobState::kRunning);
  EXPECT_TRUE(cluster.machine("n1").group_signals.empty()) << "no signal reached the node";
  EXPECT_EQ(cluster.state(id), JobState::kRunning);
}

TEST(JobLifecycle, AJobPastItsLimitIsStoppedByItsAgentAndEndsTimedOut) {
  ClusterHarness cluster(1);
  const JobId id = cluster.submit(1, Duration::minutes(1));
  cluster.advance(Duration::seconds(55), Duration::seconds(5));
  EXPECT_EQ(cluster.state(id), JobState::kRunning);
  cluster.advance(Duration::seconds(10), Duration::seconds(5));
  ASSERT_FALSE(cluster.machine("n1").group_signals.empty()) << "the agent signals the job at its limit";
  cluster.signalled_die(cluster.machine("n1").group_signals.front().second);
  EXPECT_EQ(cluster.state(id), JobState::kTimeout);
}

TEST(JobLifecycle, AJobWhoseNodeFallsSilentIsRequeuedOntoAnotherNode) {
  ClusterHarness cluster(2);
  const JobId id = cluster.submit(4);
  const std::optional<std::string> head = cluster.head_of(id);
  ASSERT_TRUE(head);
  const std::string other = *head == "n1" ? "n2" : "n1";
  cluster.silence(*head);
  cluster.advance(Duration::minutes(10), Duration::seconds(5));
  const wire::JobView v = cluster.view(id);
  EXPECT_EQ(v.state, JobState::kRunning);
  EXPECT_EQ(v.requeue_count, 1);
  EXPECT_TRUE(cluster.runs_on(id, other));
  // Cut off from the coordinator past its lease, the silent node stopped the job itself
  // (self-fencing), so that it never runs twice.
  EXPECT_FALSE(cluster.machine(*head).group_signals.empty());
}

TEST(JobLifecycle, AJobThatMayNotBeRequeuedEndsNodeFailWhenItsNodeFallsSilent) {
  ClusterHarness cluster(2);
  const JobId id = cluster.submit(4, Duration::minutes(30), 0, /*requeue=*/false);
  const std::optional<std::string> head = cluster.head_of(id);
  ASSERT_TRUE(head);
  cluster.silence(*head);
  cluster.advance(Duration::minutes(10), Duration::seconds(5));
  EXPECT_EQ(cluster.state(id), JobState::kNodeFail);
  EXPECT_EQ(cluster.nodes_launching(id).size(), 1u) << "it never ran a second time";
}

TEST(JobLifecycle, ANodeBackBeforeItsLeaseRanOutRegistersAgainAndKeepsItsJob) {
  ClusterHarness cluster(2);
  const JobId id = cluster.submit(4);
  const std::optional<std::string> head = cluster.head_of(id);
  ASSERT_TRUE(head);
  // Silent past the coordinator's heartbeat timeout (30 s): it is down, but its agent's
  // lease (60 s) has not run out, so the job may still run there and is not given up.
  cluster.silence(*head);
  cluster.advance(Duration::seconds(40), Duration::seconds(5));
  EXPECT_EQ(cluster.state(id), JobState::kRunning);
  EXPECT_TRUE(cluster.machine(*head).group_signals.empty()) << "its agent has not fenced it yet";
  // Back: told to register again, it does, with its job, which the coordinator keeps.
  cluster.hear_again(*head);
  cluster.advance(Duration::minutes(5), Duration::seconds(5));
  const wire::JobView v = cluster.view(id);
  EXPECT_EQ(v.state, JobState::kRunning);
  EXPECT_EQ(v.requeue_count, 0) << "past the silent node's lease, it was not given up";
  EXPECT_EQ(cluster.nodes_launching(id), (std::set<std::string>{*head})) << "it never ran twice";
  EXPECT_TRUE(cluster.machine(*head).group_signals.empty());
  cluster.exits(id, ProcessExit::exited(0), *head);
  EXPECT_EQ(cluster.state(id), JobState::kCompleted);
}

TEST(JobLifecycle, ARunningJobOutlivesACoordinatorCrashAndEndsAsItsProcessEnds) {
  ClusterHarness cluster(1);
  const JobId id = cluster.submit();
  cluster.restart_coordinator();
  cluster.advance(Duration::seconds(30), Duration::seconds(5));
  EXPECT_EQ(cluster.state(id), JobState::kRunning);
  EXPECT_EQ(cluster.machine("n1").launches.size(), 1u) << "it was not launched again";
  cluster.exits(id, ProcessExit::exited(0), "n1");
  EXPECT_EQ(cluster.state(id), JobState::kCompleted);
}

TEST(JobLifecycle, ATwoNodeJobHoldsBothNodesAndReleasesBothAtItsEnd) {
  ClusterHarness cluster(2);
  const JobId id = cluster.submit(4, Duration::minutes(10), 2);
  EXPECT_EQ(cluster.state(id), JobState::kRunning);
  EXPECT_EQ(cluster.nodes_launching(id), (std::set<std::string>{"n1", "n2"}));
  ASSERT_EQ(cluster.head_of(id), "n1") << "the batch script runs on the first node";
  EXPECT_TRUE(cluster.machine("n2").group_signals.empty());
  cluster.exits(id, ProcessExit::exited(0), "n1");
  EXPECT_EQ(cluster.state(id), JobState::kCompleted);
  EXPECT_FALSE(cluster.machine("n2").group_signals.empty()) << "the other node's hold is stopped";
  // Both nodes are free again: a job of every core of both runs.
  cluster.signalled_die(SIGTERM);
  cluster.signalled_die(SIGKILL);
  const JobId next = cluster.submit(4, Duration::minutes(10), 2);
  EXPECT_EQ(cluster.state(next), JobState::kRunning);
}

// A requeue whose new run comes back to a node where the run before it is still being
// launched (its workers slow): the new run is no resend of it; it starts there once the
// requeued run, stopped as soon as it runs, has ended.
TEST(JobLifecycle, ANewRunThatComesWhileTheRequeuedRunIsStillLaunchedStartsOnceThatRunEnded) {
  ClusterHarness cluster(2);
  cluster.hold_launches("n2");
  const JobId id = cluster.submit(4, Duration::minutes(10), 2);
  EXPECT_EQ(cluster.state(id), JobState::kRunning);
  ASSERT_EQ(cluster.head_of(id), "n1");
  ASSERT_EQ(cluster.machine("n2").launches.size(), 1u);
  ASSERT_TRUE(cluster.control(wire::JobAction::kRequeue, id));
  cluster.signalled_die(SIGTERM);  // its script on n1; n2's hold is not handed back yet
  cluster.advance(Duration::seconds(1));
  EXPECT_EQ(cluster.state(id), JobState::kRunning);
  EXPECT_EQ(cluster.view(id).requeue_count, 1);
  EXPECT_EQ(cluster.machine("n1").launches.size(), 2u) << "the new run started on n1";
  EXPECT_EQ(cluster.machine("n2").launches.size(), 1u) << "the new run waits on n2";
  // n2's workers hand the first hold back: it is stopped at once, and once it has ended
  // the new run's hold starts.
  cluster.hold_launches("n2", false);
  cluster.deliver();
  cluster.signalled_die(SIGTERM);
  ASSERT_EQ(cluster.machine("n2").launches.size(), 2u) << "the new run never started on n2";
  EXPECT_EQ(cluster.machine("n2").launches[0].restarts, 0);
  EXPECT_EQ(cluster.machine("n2").launches[1].restarts, 1);
  EXPECT_EQ(cluster.state(id), JobState::kRunning);
}

}  // namespace
}  // namespace fairway::testing
