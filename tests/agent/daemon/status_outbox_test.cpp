#include "agent/daemon/status_outbox.h"

#include <gtest/gtest.h>

namespace fairway::agent {
namespace {

Time T(std::int64_t s) {
  return Time::from_seconds(s);
}

wire::JobStatusUpdate update(std::uint64_t job, JobState s) {
  wire::JobStatusUpdate u;
  u.node = "n";
  u.job = JobId(job);
  u.state = s;
  return u;
}

TEST(StatusOutbox, NumbersUpdatesAndResendsUntilAcknowledged) {
  StatusOutbox box;
  auto a = box.add(update(1, JobState::kRunning), T(0));
  auto b = box.add(update(1, JobState::kCompleted), T(0));
  EXPECT_EQ(a.seq, 1u);
  EXPECT_EQ(b.seq, 2u);
  EXPECT_TRUE(box.due(T(1), Duration::seconds(2)).empty());
  auto again = box.due(T(2), Duration::seconds(2));
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(again[0].seq, 1u);
  box.acknowledge(1);
  box.acknowledge(1);  // a duplicate Ack is harmless
  box.acknowledge(77);
  EXPECT_EQ(box.pending(), 1u);
  EXPECT_TRUE(box.due(T(3), Duration::seconds(2)).empty());  // just resent at 2
  auto last = box.due(T(4), Duration::seconds(2));
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].state, JobState::kCompleted);
  box.acknowledge(2);
  EXPECT_EQ(box.pending(), 0u);
}

TEST(StatusOutbox, AllReturnsTheBacklogInOrderForAReRegistration) {
  StatusOutbox box;
  for (std::uint64_t j = 1; j <= 3; ++j) box.add(update(j, JobState::kFailed), T(0));
  auto all = box.all(T(0));
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].job, JobId(1));
  EXPECT_EQ(all[2].job, JobId(3));
  EXPECT_TRUE(box.due(T(1), Duration::seconds(2)).empty());
}

}  // namespace
}  // namespace fairway::agent
