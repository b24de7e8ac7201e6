// A running job whose stop the coordinator decided (scancel, scontrol requeue, its time
// limit) is shown as Slurm shows it from that moment (COMPLETING, and the state decided for
// accounting), not RUNNING until its agent reports the processes gone (issue 35).
#include <gtest/gtest.h>

#include <csignal>

#include "tests/support/cluster_harness.h"

namespace fairway::testing {
namespace {

TEST(JobStopView, ACancelledJobIsCancelledByItsCancellerFromTheCancelOn) {
  ClusterHarness cluster(1);
  const JobId id = cluster.submit();
  ASSERT_EQ(cluster.state(id), JobState::kRunning);
  ASSERT_TRUE(cluster.control(wire::JobAction::kCancel, id).has_value());
  const wire::JobView v = cluster.view(id);
  EXPECT_EQ(v.state, JobState::kCompleting);
  EXPECT_TRUE(v.cancelling);
  EXPECT_EQ(v.stopping_as, JobState::kCancelled);
  EXPECT_NE(v.state_reason.find("alice"), std::string::npos) << v.state_reason;  // sacct: CANCELLED by 1001
  EXPECT_TRUE(v.reasons.empty());
  cluster.advance(Duration::seconds(5));
  cluster.signalled_die(SIGTERM);
  EXPECT_EQ(cluster.state(id), JobState::kCancelled);
  EXPECT_FALSE(cluster.view(id).stopping_as);
}

TEST(JobStopView, ARequeuedJobIsBackInTheQueueWithItsRestartCountedAtOnce) {
  ClusterHarness cluster(1);
  const JobId id = cluster.submit();
  ASSERT_EQ(cluster.state(id), JobState::kRunning);
  ASSERT_TRUE(cluster.control(wire::JobAction::kRequeue, id).has_value());
  const wire::JobView v = cluster.view(id);
  EXPECT_EQ(v.state, JobState::kCompleting);
  EXPECT_FALSE(v.cancelling);
  EXPECT_EQ(v.stopping_as, JobState::kRequeued);
  EXPECT_EQ(v.requeue_count, 1);
  EXPECT_FALSE(v.start_time) << "its run is over: RunTime=0, as Slurm's";
  cluster.advance(Duration::seconds(5));
  cluster.signalled_die(SIGTERM);
  const wire::JobView after = cluster.view(id);
  EXPECT_EQ(after.requeue_count, 1) << "counted once";
  EXPECT_FALSE(after.stopping_as);
}

TEST(JobStopView, AJobPastItsTimeLimitIsTimingOutUntilItsAgentReports) {
  ClusterHarness cluster(1);
  const JobId id = cluster.submit(1, Duration::minutes(10));
  ASSERT_EQ(cluster.state(id), JobState::kRunning);
  cluster.advance(Duration::minutes(10) - Duration::seconds(1), Duration::seconds(1));
  EXPECT_EQ(cluster.state(id), JobState::kRunning);
  EXPECT_FALSE(cluster.view(id).stopping_as);
  cluster.advance(Duration::seconds(1));
  const wire::JobView v = cluster.view(id);
  EXPECT_EQ(v.state, JobState::kCompleting);
  EXPECT_EQ(v.stopping_as, JobState::kTimeout);
  EXPECT_EQ(v.reasons, std::vector<std::string>{"TimeLimit"});
  ASSERT_EQ(v.reason_texts.size(), 1u);
  EXPECT_NE(v.reason_texts[0].find("10:00"), std::string::npos) << v.reason_texts[0];
  cluster.advance(Duration::seconds(5));
  cluster.signalled_die(SIGTERM);
  EXPECT_EQ(cluster.state(id), JobState::kTimeout);
  EXPECT_FALSE(cluster.view(id).stopping_as);
}

}  // namespace
}  // namespace fairway::testing
