#include "agent/os/child_reaper.h"

#include <sys/wait.h>
#include <csignal>

#include "tests/agent/os/os_test_support.h"

namespace fairway::agent {
namespace {

TEST(ChildReaperTest, DecodesWaitStatuses) {
  EXPECT_EQ(process_exit_from_wait_status(0), ProcessExit::exited(0));
  EXPECT_EQ(process_exit_from_wait_status(3 << 8), ProcessExit::exited(3));
  EXPECT_EQ(process_exit_from_wait_status(SIGKILL), ProcessExit::signalled(SIGKILL));
  EXPECT_EQ(process_exit_from_wait_status(SIGSEGV | 0x80), ProcessExit::signalled(SIGSEGV));
}

TEST(ChildReaperTest, ReapsEveryEndedChildWithItsExit) {
  const pid_t exits_5 = ::fork();
  if (exits_5 == 0) ::_exit(5);
  const pid_t killed = ::fork();
  if (killed == 0) {
    ::pause();
    ::_exit(0);
  }
  ASSERT_GT(exits_5, 0);
  ASSERT_GT(killed, 0);
  ::kill(killed, SIGKILL);
  std::vector<ReapedChild> all;
  ChildReaper reaper;
  for (int i = 0; i < 500 && all.size() < 2; ++i) {
    auto reaped = reaper.reap();
    ASSERT_TRUE(reaped) << reaped.error().message;
    all.insert(all.end(), reaped->begin(), reaped->end());
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(all.size(), 2u);
  for (const auto& child : all) {
    if (child.pid == exits_5) {
      EXPECT_EQ(child.exit, ProcessExit::exited(5));
    } else {
      EXPECT_EQ(child.pid, killed);
      EXPECT_EQ(child.exit, ProcessExit::signalled(SIGKILL));
    }
  }
  // Nothing left: no error, nothing reaped.
  auto again = reaper.reap();
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->empty());
}

TEST(ChildReaperTest, RunningChildIsNotReported) {
  const pid_t child = ::fork();
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  ASSERT_GT(child, 0);
  ChildReaper reaper;
  auto reaped = reaper.reap();
  ASSERT_TRUE(reaped);
  EXPECT_TRUE(reaped->empty());
  ::kill(child, SIGKILL);
  EXPECT_EQ(testing::wait_for_exit(child), ProcessExit::signalled(SIGKILL));
}

TEST(ChildReaperTest, SignalGroupReachesTheWholeGroup) {
  const pid_t leader = ::fork();
  if (leader == 0) {
    ::setpgid(0, 0);
    ::pause();
    ::_exit(0);
  }
  ASSERT_GT(leader, 0);
  ::setpgid(leader, leader);  // both sides set it: no race with the child
  ASSERT_TRUE(ChildReaper::signal_group(leader, SIGUSR1));
  EXPECT_EQ(testing::wait_for_exit(leader), ProcessExit::signalled(SIGUSR1));
}

TEST(ChildReaperTest, SignalGroupToAVanishedGroupIsNotAnError) {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ASSERT_TRUE(testing::wait_for_exit(child));
  EXPECT_TRUE(ChildReaper::signal_group(child, SIGTERM));
}

TEST(ChildReaperTest, SignalGroupRefusesPgidsThatAreNotAJob) {
  for (const pid_t pgid : {0, 1, -5}) {
    const Status s = ChildReaper::signal_group(pgid, SIGTERM);
    ASSERT_FALSE(s) << pgid;
    EXPECT_NE(s.error().message.find("pgid " + std::to_string(pgid)), std::string::npos);
  }
}

}  // namespace
}  // namespace fairway::agent
