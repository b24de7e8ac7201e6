// RuntimePredictor: the mean of a user's last two runs, capped by the limit, and the
// stepped extension of a prediction a running job has outlived.
#include "coordinator/core/runtime_predictor.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

const Duration kHour = Duration::hours(1);

TEST(RuntimePredictor, TheLimitUntilTheUserHasTwoRuns) {
  RuntimePredictor p;
  EXPECT_EQ(p.predict("alice", kHour), kHour);
  p.record("alice", Duration::seconds(100), Time::from_seconds(1000));
  EXPECT_EQ(p.predict("alice", kHour), kHour);
  p.record("alice", Duration::seconds(300), Time::from_seconds(2000));
  EXPECT_EQ(p.predict("alice", kHour), Duration::seconds(200));
  EXPECT_EQ(p.predict("bob", kHour), kHour) << "one user's runs say nothing of another's";
}

TEST(RuntimePredictor, OnlyTheLastTwoRunsCount) {
  RuntimePredictor p;
  p.record("alice", Duration::seconds(10'000), Time::from_seconds(3000));
  p.record("alice", Duration::seconds(100), Time::from_seconds(4000));
  p.record("alice", Duration::seconds(201), Time::from_seconds(5000));
  EXPECT_EQ(p.predict("alice", kHour), Duration::seconds(151));  // rounded up
}

TEST(RuntimePredictor, TheTwoThatEndedLastCountWhateverTheOrderTold) {
  RuntimePredictor p;
  p.record("alice", Duration::seconds(100), Time::from_seconds(300));
  p.record("alice", Duration::seconds(9'000), Time::from_seconds(100));  // dropped by the next
  p.record("alice", Duration::seconds(300), Time::from_seconds(200));
  EXPECT_EQ(p.predict("alice", kHour), Duration::seconds(200));
  p.record("alice", Duration::seconds(50), Time::from_seconds(250));
  EXPECT_EQ(p.predict("alice", kHour), Duration::seconds(75));
}

TEST(RuntimePredictor, NeverPastTheLimitNorZero) {
  RuntimePredictor p;
  p.record("alice", Duration::hours(5), Time::from_seconds(6000));
  p.record("alice", Duration::hours(7), Time::from_seconds(7000));
  EXPECT_EQ(p.predict("alice", kHour), kHour);
  p.record("bob", Duration::seconds(0), Time::from_seconds(8000));
  p.record("bob", Duration::seconds(0), Time::from_seconds(9000));
  EXPECT_EQ(p.predict("bob", kHour), Duration::seconds(1));
}

TEST(RuntimePredictor, AnOutlivedPredictionStepsUpThenReachesTheLimit) {
  const Duration day = Duration::days(10);
  EXPECT_EQ(RuntimePredictor::extend(Duration::seconds(30), day), Duration::minutes(1));
  EXPECT_EQ(RuntimePredictor::extend(Duration::minutes(1), day), Duration::minutes(5));
  EXPECT_EQ(RuntimePredictor::extend(Duration::minutes(20), day), Duration::minutes(30));
  EXPECT_EQ(RuntimePredictor::extend(Duration::hours(3), day), Duration::hours(5));
  EXPECT_EQ(RuntimePredictor::extend(Duration::hours(60), day), Duration::hours(100));
  EXPECT_EQ(RuntimePredictor::extend(Duration::hours(100), day), day);
  EXPECT_EQ(RuntimePredictor::extend(Duration::hours(3), kHour * 4), kHour * 4);
}

}  // namespace
}  // namespace fairway
