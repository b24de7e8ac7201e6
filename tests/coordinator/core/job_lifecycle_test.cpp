// The job lifecycle as event sequences with no clock: every way the coordinator reads a
// running job's end (report, cancel, requeue, an ended allocation, preemption, lost node).
#include "coordinator/core/job_lifecycle.h"

#include <gtest/gtest.h>

namespace fairway::lifecycle {
namespace {

const Time kNow;  // the lifecycle reads no clock; any time will do

JobRecord running_job(bool requeue = false) {
  JobRecord r;
  r.spec.id = JobId(7);
  r.spec.requeue = requeue;
  r.state = JobState::kRunning;
  return r;
}

template <class E>
const E& at(const std::vector<JobEffect>& fx, std::size_t i) {
  EXPECT_LT(i, fx.size());
  const E* e = std::get_if<E>(&fx.at(i));
  EXPECT_NE(e, nullptr) << "effect " << i << " is index " << fx.at(i).index();
  return *e;
}

TEST(JobLifecycle, ReportedEndIsFinishedAsReportedThenForgotten) {
  JobRecord r = running_job();
  auto fx = apply(r, Reported{JobState::kFailed, {}}, kNow);
  ASSERT_EQ(fx.size(), 2u);
  EXPECT_EQ(at<Finish>(fx, 0).state, JobState::kFailed);
  EXPECT_TRUE(at<Finish>(fx, 0).reported);
  at<Forget>(fx, 1);
}

TEST(JobLifecycle, AReportedOutcomeIsKeptOnTheRecordAcrossARequeue) {
  JobRecord r = running_job();
  (void)apply(r, RequeueAsked{}, kNow);
  (void)apply(r, Reported{JobState::kFailed, {std::int32_t{1}, std::nullopt, 1024, 20}}, kNow);
  EXPECT_EQ(r.outcome.exit_code, 1);
  EXPECT_EQ(r.outcome.peak_memory_bytes, 1024);
  EXPECT_EQ(r.outcome.cpu_time_ms, 20);
}

TEST(JobLifecycle, ANonTerminalReportEndsAsFailed) {
  JobRecord r = running_job();
  auto fx = apply(r, Reported{JobState::kRunning, {}}, kNow);
  EXPECT_EQ(at<Finish>(fx, 0).state, JobState::kFailed);
}

TEST(JobLifecycle, CancelSignalsThenTheEndIsACancelWithWhoDidIt) {
  JobRecord r = running_job();
  auto fx = apply(r, CancelAsked{"cancelled by ann (uid 1000)"}, kNow);
  ASSERT_EQ(fx.size(), 1u);
  EXPECT_EQ(at<Signal>(fx, 0).signal, 15);
  EXPECT_TRUE(r.stop.cancel);
  fx = apply(r, Reported{JobState::kFailed, {}}, kNow);
  ASSERT_EQ(fx.size(), 3u);
  EXPECT_EQ(at<Finish>(fx, 0).state, JobState::kCancelled);
  EXPECT_EQ(at<SetReason>(fx, 1).reason, "cancelled by ann (uid 1000)");
  at<Forget>(fx, 2);
}

TEST(JobLifecycle, ACancelledJobThatCompletedAnywayStaysCompleted) {
  JobRecord r = running_job();
  (void)apply(r, CancelAsked{"cancelled by ann (uid 1000)"}, kNow);
  auto fx = apply(r, Reported{JobState::kCompleted, {}}, kNow);
  ASSERT_EQ(fx.size(), 2u);
  EXPECT_EQ(at<Finish>(fx, 0).state, JobState::kCompleted);
}

TEST(JobLifecycle, AnEndedAllocationEndsAsItsCommand) {
  JobRecord ok = running_job();
  (void)apply(ok, AllocationEnded{0, 0}, kNow);
  auto fx = apply(ok, Reported{JobState::kCancelled, {}}, kNow);
  ASSERT_EQ(fx.size(), 2u);  // no cancel reason: its client ended it
  EXPECT_EQ(at<Finish>(fx, 0).state, JobState::kCompleted);
  EXPECT_EQ(ok.outcome.exit_code, 0);
  EXPECT_FALSE(ok.outcome.signal.has_value());

  JobRecord bad = running_job();
  (void)apply(bad, AllocationEnded{3, 0}, kNow);
  (void)apply(bad, Reported{JobState::kFailed, {std::int32_t{137}, std::nullopt, 4096, 50}}, kNow);
  EXPECT_EQ(bad.outcome.exit_code, 3);             // the command's, not the holder's kill
  EXPECT_EQ(bad.outcome.peak_memory_bytes, 4096);  // the report's usage stays

  JobRecord killed = running_job();
  (void)apply(killed, AllocationEnded{0, 9}, kNow);
  fx = apply(killed, Reported{JobState::kFailed, {}}, kNow);
  EXPECT_EQ(at<Finish>(fx, 0).state, JobState::kFailed);
  EXPECT_FALSE(killed.outcome.exit_code.has_value());
  EXPECT_EQ(killed.outcome.signal, 9);
}

TEST(JobLifecycle, RequeueAskedGoesBackToTheQueueOnceAndThenEndsNormally) {
  JobRecord r = running_job();
  auto fx = apply(r, RequeueAsked{}, kNow);
  EXPECT_EQ(at<Signal>(fx, 0).signal, 15);
  fx = apply(r, Reported{JobState::kFailed, {}}, kNow);
  ASSERT_EQ(fx.size(), 4u);
  EXPECT_FALSE(at<Requeue>(fx, 0).lost);
  EXPECT_EQ(at<SetReason>(fx, 1).reason, "requeued on request");
  at<Persist>(fx, 2);
  at<MailRequeue>(fx, 3);
  EXPECT_FALSE(r.stop.requeue);  // asked once: the next run's end is its own
  fx = apply(r, Reported{JobState::kCompleted, {}}, kNow);
  EXPECT_EQ(at<Finish>(fx, 0).state, JobState::kCompleted);
}

TEST(JobLifecycle, RequeueWinsOverASelfFencedReport) {
  JobRecord r = running_job();
  (void)apply(r, RequeueAsked{}, kNow);
  auto fx = apply(r, Reported{JobState::kNodeFail, {}}, kNow);
  at<Requeue>(fx, 0);
}

TEST(JobLifecycle, ASelfFencedNodeIsALostNode) {
  JobRecord r = running_job(/*requeue=*/true);
  auto fx = apply(r, Reported{JobState::kNodeFail, {}}, kNow);
  ASSERT_EQ(fx.size(), 4u);
  EXPECT_EQ(at<SetReason>(fx, 0).reason, "its node lost the coordinator and stopped it");
  EXPECT_TRUE(at<Requeue>(fx, 1).lost);
}

TEST(JobLifecycle, ACancelledJobWhoseNodeFencedEndsCancelled) {
  JobRecord r = running_job(/*requeue=*/true);
  (void)apply(r, CancelAsked{"cancelled by root (uid 0)"}, kNow);
  auto fx = apply(r, Reported{JobState::kNodeFail, {}}, kNow);
  EXPECT_EQ(at<Finish>(fx, 0).state, JobState::kCancelled);
}

TEST(JobLifecycle, ALostNodeRequeuesARequeueableJob) {
  JobRecord r = running_job(/*requeue=*/true);
  auto fx = apply(r, NodeLost{"node n3 lost"}, kNow);
  ASSERT_EQ(fx.size(), 4u);
  EXPECT_EQ(at<SetReason>(fx, 0).reason, "node n3 lost");
  EXPECT_EQ(at<Requeue>(fx, 1).reason, "node n3 lost");
  EXPECT_TRUE(at<Requeue>(fx, 1).lost);
  at<Persist>(fx, 2);
  at<MailRequeue>(fx, 3);
}

TEST(JobLifecycle, ALostNodeEndsAnyOtherJobAsNodeFail) {
  JobRecord r = running_job(/*requeue=*/false);
  auto fx = apply(r, NodeLost{"no report from its node after a restart"}, kNow);
  ASSERT_EQ(fx.size(), 3u);
  EXPECT_EQ(at<Finish>(fx, 1).state, JobState::kNodeFail);
  EXPECT_FALSE(at<Finish>(fx, 1).reported);
  at<Forget>(fx, 2);
}

TEST(JobLifecycle, APreemptedJobsEndIsTheCoresToRead) {
  JobRecord r = running_job();
  r.preempting = PreemptionMark{};
  auto fx = apply(r, Reported{JobState::kFailed, {}}, kNow);
  ASSERT_EQ(fx.size(), 1u);
  at<StopPreempted>(fx, 0);
}

TEST(JobLifecycle, APreemptedJobThatCompletedOrWasCancelledIsNotPreempted) {
  JobRecord done = running_job();
  done.preempting = PreemptionMark{};
  EXPECT_EQ(at<Finish>(apply(done, Reported{JobState::kCompleted, {}}, kNow), 0).state, JobState::kCompleted);
  JobRecord cancelled = running_job();
  cancelled.preempting = PreemptionMark{};
  (void)apply(cancelled, CancelAsked{"cancelled by ann (uid 1000)"}, kNow);
  EXPECT_EQ(at<Finish>(apply(cancelled, Reported{JobState::kFailed, {}}, kNow), 0).state,
            JobState::kCancelled);
}

TEST(JobLifecycle, EventsAboutAJobThatIsNotRunningDoNothing) {
  JobRecord r = running_job(/*requeue=*/true);
  r.state = JobState::kPending;
  EXPECT_TRUE(apply(r, Reported{JobState::kCompleted, {std::int32_t{2}, {}, {}, {}}}, kNow).empty());
  EXPECT_FALSE(r.outcome.exit_code.has_value());  // a late report changes nothing
  EXPECT_TRUE(apply(r, NodeLost{"node n0 lost"}, kNow).empty());
  EXPECT_TRUE(apply(r, CancelAsked{"x"}, kNow).empty());
  EXPECT_TRUE(apply(r, RequeueAsked{}, kNow).empty());
  EXPECT_FALSE(r.stop.cancel);
  EXPECT_FALSE(r.stop.requeue);
}

TEST(JobLifecycle, ARestoredJobTheCoreRefusedEndsAsNodeFailWithNoRunShown) {
  JobRecord r = running_job(/*requeue=*/true);  // even one that may requeue: do not guess
  r.start_time = Time::from_seconds(100);
  r.allocation.nodes = {{NodeIndex(0), {1}, {}}};
  const Time at = Time::from_seconds(500);
  EXPECT_TRUE(apply(r, NotRestored{"core 1 of node 'n0' is not free"}, at).empty());  // nothing stored
  EXPECT_EQ(r.state, JobState::kNodeFail);
  EXPECT_EQ(r.end_time, at);
  EXPECT_EQ(r.reason, "could not be restored: core 1 of node 'n0' is not free");
  EXPECT_EQ(r.start_time, Time());  // what it held is another restored job's
  EXPECT_TRUE(r.allocation.empty());
  // Only a running record: an ended one stays as it is.
  EXPECT_TRUE(apply(r, NotRestored{"again"}, kNow).empty());
  EXPECT_EQ(r.end_time, at);
}

TEST(JobLifecycle, AStoppingJobStillTakesACancel) {
  JobRecord r = running_job();
  r.state = JobState::kCompleting;
  EXPECT_EQ(apply(r, CancelAsked{"x"}, kNow).size(), 1u);
  EXPECT_TRUE(r.stop.cancel);
}

}  // namespace
}  // namespace fairway::lifecycle
