// A task's usage in its exit message (the relay writes it, srun reads it): round trip, and
// anything else (an older relay's empty data, a garbled or hostile value) reads as none.
#include "shared/wire/task_usage.h"

#include <gtest/gtest.h>

namespace fairway::wire {
namespace {

TEST(TaskUsage, RoundTripsAndRefusesWhatIsNotIt) {
  const TaskUsage u{84500, 4'094'123};
  EXPECT_EQ(format_task_usage(u), "rss_kb=84500 cpu_us=4094123");
  EXPECT_EQ(parse_task_usage(format_task_usage(u)), u);
  EXPECT_EQ(parse_task_usage("rss_kb=0 cpu_us=0"), (TaskUsage{0, 0}));
  for (const char* bad : {"", "rss_kb=1", "cpu_us=1 rss_kb=1", "rss_kb=-1 cpu_us=1", "rss_kb=1 cpu_us=x",
                          "rss_kb=1 cpu_us=1 ", "rss_kb=1  cpu_us=1", "rss_kb=1 cpu_us=1 more=2",
                          "rss_kb=9007199254740992 cpu_us=1", "rss_kb= cpu_us=1", "rss_kb1 cpu_us=1"}) {
    EXPECT_FALSE(parse_task_usage(bad)) << bad;
  }
}

}  // namespace
}  // namespace fairway::wire
