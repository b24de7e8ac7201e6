// The local router's frame timeout as bookkeeping: a message begun and not finished in
// time is reported, one finished (or requests back to back that keep finishing) is not.
#include "shared/net/frame_deadlines.h"

#include <gtest/gtest.h>

namespace fairway::net {
namespace {

using namespace std::chrono_literals;
using Clock = FrameDeadlines::Clock;

TEST(FrameDeadlinesTest, AnUnfinishedMessageExpiresFromItsFirstByte) {
  FrameDeadlines d(10s);
  const Clock::time_point t0{};
  d.after_read(1, true, false, t0 + 1s);
  d.after_read(1, true, false, t0 + 5s);  // more bytes of the same message: no new start
  d.after_read(2, false, true, t0 + 1s);  // nothing unfinished
  EXPECT_TRUE(d.expired(t0 + 10s).empty());
  const auto gone = d.expired(t0 + 11s);
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0].first, 1u);
  EXPECT_EQ(gone[0].second, 10s);
  EXPECT_TRUE(d.expired(t0 + 60s).empty()) << "reported once";
}

TEST(FrameDeadlinesTest, RequestsBackToBackRestartTheClockAndAFinishedOneStopsIt) {
  FrameDeadlines d(10s);
  const Clock::time_point t0{};
  d.after_read(1, true, false, t0);
  d.after_read(1, true, true, t0 + 8s);  // a whole message came, the next one is begun
  d.after_read(2, true, false, t0);
  d.after_read(2, false, true, t0 + 8s);
  EXPECT_TRUE(d.expired(t0 + 17s).empty());
  EXPECT_EQ(d.expired(t0 + 18s).size(), 1u);
  d.after_read(3, true, false, t0);
  d.forget(3);  // closed
  EXPECT_TRUE(d.expired(t0 + 60s).empty());
}

}  // namespace
}  // namespace fairway::net
