// scheduler.runtime_prediction = "user_last_2" and backfill_order = "shortest_first" in the
// Scheduler: plans follow predictions learnt from finished runs, an outlived prediction is
// extended, the kill still follows the limit, and fillers go shortest first (EASY++).
#include <gtest/gtest.h>

#include <algorithm>

#include "coordinator/core/scheduler.h"
#include "test_cluster.h"

namespace fairway {
namespace {

using testing::job;
using testing::T;

Config one_node(RuntimePrediction prediction, BackfillOrder order = BackfillOrder::kPriority) {
  Config c = testing::uniform_cluster(1, 1, 4, BackfillMode::kEasy);
  c.scheduler.runtime_prediction = prediction;
  c.scheduler.backfill_order = order;
  return c;
}

bool started(const PassResult& r, std::uint64_t id) {
  return std::any_of(r.started.begin(), r.started.end(),
                     [&](const JobStart& s) { return s.id == JobId(id); });
}

TEST(RuntimePrediction, FinishedRunsOfTheUserMakeThePrediction) {
  auto s = testing::make(one_node(RuntimePrediction::kUserLast2));
  ASSERT_TRUE(s->submit(job(1, 4, 3600, 0, "alice"), T(0)));
  ASSERT_TRUE(started(s->schedule(T(0)), 1));
  ASSERT_TRUE(s->finish(JobId(1), JobState::kCompleted, T(50)));
  EXPECT_EQ(s->predicted_runtime("alice", Duration::hours(1)), Duration::hours(1)) << "one run is not enough";
  ASSERT_TRUE(s->submit(job(2, 4, 3600, 50, "alice"), T(50)));
  ASSERT_TRUE(started(s->schedule(T(50)), 2));
  ASSERT_TRUE(s->finish(JobId(2), JobState::kFailed, T(150)));
  EXPECT_EQ(s->predicted_runtime("alice", Duration::hours(1)), Duration::seconds(75));
  // A cancelled run says nothing about how long the work takes.
  ASSERT_TRUE(s->submit(job(3, 4, 3600, 150, "alice"), T(150)));
  ASSERT_TRUE(started(s->schedule(T(150)), 3));
  ASSERT_TRUE(s->cancel(JobId(3), T(151)));
  EXPECT_EQ(s->predicted_runtime("alice", Duration::hours(1)), Duration::seconds(75));

  auto off = testing::make(one_node(RuntimePrediction::kNone));
  off->restore_runtime("alice", Duration::seconds(10), T(10));
  off->restore_runtime("alice", Duration::seconds(10), T(10));
  EXPECT_EQ(off->predicted_runtime("alice", Duration::hours(1)), Duration::hours(1));
}

// Alice's last two runs took 100 s; her 1-hour job holds the node from t=1000 and Bob's
// job waits for it.
struct Reserved {
  std::unique_ptr<Scheduler> s;
  explicit Reserved(RuntimePrediction prediction) : s(testing::make(one_node(prediction))) {
    s->restore_runtime("alice", Duration::seconds(100), T(100));
    s->restore_runtime("alice", Duration::seconds(100), T(200));
    EXPECT_TRUE(s->submit(job(3, 4, 3600, 1000, "alice"), T(1000)));
    EXPECT_TRUE(started(s->schedule(T(1000)), 3));
    EXPECT_TRUE(s->submit(job(4, 4, 3600, 1001, "bob"), T(1001)));
  }
  Time reserved_at(Time now) {
    s->schedule(now);
    return s->job(JobId(4))->reserved_start.value_or(Time::never());
  }
};

TEST(RuntimePrediction, TheReservationFollowsThePredictionAndItsExtensions) {
  Reserved r(RuntimePrediction::kUserLast2);
  EXPECT_EQ(r.reserved_at(T(1001)), T(1100));
  // Still running at 200 s: planned to the next step, 5 minutes, then on to the limit.
  EXPECT_EQ(r.reserved_at(T(1200)), T(1300));
  EXPECT_EQ(r.reserved_at(T(1000 + 1900)), T(1000 + 3600));
  // The kill still follows the limit.
  EXPECT_EQ(r.s->job(JobId(3))->estimated_end(T(1200)), T(4600));

  Reserved by_limit(RuntimePrediction::kNone);
  EXPECT_EQ(by_limit.reserved_at(T(1001)), T(4600));
}

// Carol's 3-core job runs to t=1000 (her limit, no history); Bob's 4-core job is reserved
// then. Alice's 1-core job has a 1-hour limit but her runs take 100 s.
TEST(RuntimePrediction, AJobPredictedToEndBeforeTheReservationBackfills) {
  for (const auto prediction : {RuntimePrediction::kNone, RuntimePrediction::kUserLast2}) {
    auto s = testing::make(one_node(prediction));
    s->restore_runtime("alice", Duration::seconds(100), T(100));
    s->restore_runtime("alice", Duration::seconds(100), T(200));
    ASSERT_TRUE(s->submit(job(1, 3, 1000, 0, "carol"), T(0)));
    ASSERT_TRUE(started(s->schedule(T(0)), 1));
    ASSERT_TRUE(s->submit(job(2, 4, 1000, 1, "bob"), T(1)));
    ASSERT_TRUE(s->submit(job(3, 1, 3600, 2, "alice"), T(2)));
    const PassResult r = s->schedule(T(10));
    EXPECT_EQ(s->job(JobId(2))->reserved_start, T(1000));
    if (prediction == RuntimePrediction::kNone) {
      EXPECT_FALSE(started(r, 3)) << "planned by its limit it would delay Bob";
    } else {
      EXPECT_TRUE(started(r, 3));
      EXPECT_EQ(s->job(JobId(3))->estimated_end(T(10)), T(3610)) << "the kill follows the limit";
    }
  }
}

// One core free before Bob's reservation at t=1000: Dave's 500-s job has waited longer
// than Erin's 100-s job. The queue's order starts Dave's; shortest-first starts Erin's.
TEST(RuntimePrediction, ShortestFirstBackfillPicksTheShortestFiller) {
  for (const auto order : {BackfillOrder::kPriority, BackfillOrder::kShortestFirst}) {
    auto s = testing::make(one_node(RuntimePrediction::kNone, order));
    ASSERT_TRUE(s->submit(job(1, 3, 1000, 0, "carol"), T(0)));
    ASSERT_TRUE(started(s->schedule(T(0)), 1));
    ASSERT_TRUE(s->submit(job(2, 4, 1000, 1, "bob"), T(1)));
    ASSERT_TRUE(s->submit(job(3, 1, 500, 2, "dave"), T(2)));
    ASSERT_TRUE(s->submit(job(4, 1, 100, 5, "erin"), T(5)));
    const PassResult r = s->schedule(T(10));
    EXPECT_EQ(s->job(JobId(2))->reserved_start, T(1000)) << "the head keeps its place";
    EXPECT_EQ(started(r, 3), order == BackfillOrder::kPriority);
    EXPECT_EQ(started(r, 4), order == BackfillOrder::kShortestFirst);
  }
}

}  // namespace
}  // namespace fairway
