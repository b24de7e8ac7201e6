#include "agent/os/proc_stat.h"

#include "tests/agent/os/os_test_support.h"

namespace fairway::agent {
namespace {

TEST(ProcStatTest, ParsesCommandNamesWithSpacesAndParens) {
  const std::string text =
      "1234 (my (odd) job) S 1 1234 1234 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 "
      "1000 100 18446744073709551615\n";
  auto stat = parse_proc_stat(text);
  ASSERT_TRUE(stat) << stat.error().message;
  EXPECT_EQ(stat->state, 'S');
  EXPECT_EQ(stat->pgid, 1234);
  EXPECT_EQ(stat->start_ticks, 987654u);
  EXPECT_FALSE(stat->is_dead());
}

TEST(ProcStatTest, RejectsTruncatedText) {
  EXPECT_FALSE(parse_proc_stat("1234 (sh) S 1 2 3"));
  EXPECT_FALSE(parse_proc_stat("no parens at all"));
}

TEST(ProcStatTest, ReadsThisProcessAndTellsItFromAReusedPid) {
  auto self = read_proc_stat(::getpid());
  ASSERT_TRUE(self) << self.error().message;
  EXPECT_EQ(self->pgid, ::getpgrp());
  EXPECT_TRUE(process_is_alive(::getpid(), self->start_ticks));
  EXPECT_FALSE(process_is_alive(::getpid(), self->start_ticks + 1));
}

TEST(ProcStatTest, MissingProcessIsNotFound) {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ASSERT_TRUE(testing::wait_for_exit(child));
  auto gone = read_proc_stat(child);
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().code, ErrorCode::kNotFound);
  EXPECT_FALSE(process_is_alive(child, 0));
}

}  // namespace
}  // namespace fairway::agent
