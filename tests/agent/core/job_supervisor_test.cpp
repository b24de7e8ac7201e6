#include "agent/core/job_supervisor.h"

#include <csignal>

#include <gtest/gtest.h>

namespace fairway::agent {
namespace {

Time at(std::int64_t s) {
  return Time::from_seconds(s);
}

JobSupervisor make(Duration limit = Duration::seconds(100), Duration grace = Duration::seconds(30)) {
  auto s = JobSupervisor::launched(JobId(5), 1234, 1234, at(1000), limit, grace);
  EXPECT_TRUE(s) << (s ? "" : s.error().message);
  return *s;
}

SupervisorAction group_signal(std::int32_t sig) {
  return SupervisorAction{JobId(5), SupervisorActionKind::kSignalGroup, 1234, sig};
}

// sbatch --signal=USR1@30 and B:USR2@30: the warning goes out once, 30 s before the
// walltime, to the group or to the batch script alone; the walltime then acts as ever.
TEST(JobSupervisorTest, AWarningSignalGoesOutBeforeTheWalltime) {
  for (const bool batch_only : {false, true}) {
    JobSupervisor s = make();
    s.set_warning(SIGUSR1, Duration::seconds(30), batch_only);
    EXPECT_EQ(s.deadline(), at(1070));
    EXPECT_TRUE(s.on_time(at(1069)).empty());
    const auto warn = s.on_time(at(1070));
    ASSERT_EQ(warn.size(), 1u);
    EXPECT_EQ(warn[0], (SupervisorAction{JobId(5),
                                         batch_only ? SupervisorActionKind::kSignalProcess
                                                    : SupervisorActionKind::kSignalGroup,
                                         1234, SIGUSR1}));
    EXPECT_EQ(s.deadline(), at(1100));
    EXPECT_TRUE(s.on_time(at(1080)).empty());  // once
    EXPECT_EQ(s.on_time(at(1100)), std::vector<SupervisorAction>{group_signal(SIGTERM)});
  }
  // A warning longer than the limit goes out at once; a late tick sends it with the TERM.
  JobSupervisor s = make();
  s.set_warning(SIGUSR2, Duration::seconds(500), false);
  EXPECT_EQ(s.deadline(), at(600));
  JobSupervisor late = make();
  late.set_warning(SIGUSR2, Duration::seconds(10), false);
  EXPECT_EQ(late.on_time(at(1100)),
            (std::vector<SupervisorAction>{group_signal(SIGUSR2), group_signal(SIGTERM)}));
}

// fairway update job TimeLimit=: the walltime moves, counted from the start; a limit
// already passed acts at the next tick; a job being stopped keeps its course.
TEST(JobSupervisorTest, ANewTimeLimitMovesTheWalltime) {
  JobSupervisor s = make();
  ASSERT_TRUE(s.set_time_limit(Duration::seconds(300)));
  EXPECT_EQ(s.deadline(), at(1300));
  EXPECT_TRUE(s.on_time(at(1100)).empty());
  ASSERT_TRUE(s.set_time_limit(Duration::seconds(50)));
  EXPECT_EQ(s.on_time(at(1101)), std::vector<SupervisorAction>{group_signal(SIGTERM)});
  const Time kill_at = s.deadline();
  EXPECT_TRUE(s.set_time_limit(Duration::seconds(1000)));
  EXPECT_EQ(s.deadline(), kill_at) << "terminating: the KILL stays due";
  EXPECT_FALSE(s.set_time_limit(Duration::seconds(0)));
}

TEST(JobSupervisorTest, CompletesOnExitZeroBeforeWalltime) {
  JobSupervisor s = make();
  EXPECT_EQ(s.phase(), SupervisorPhase::kRunning);
  EXPECT_EQ(s.deadline(), at(1100));
  EXPECT_TRUE(s.on_time(at(1099)).empty());
  EXPECT_EQ(s.on_exit(ProcessExit::exited(0), at(1050)), JobState::kCompleted);
  EXPECT_EQ(s.deadline(), Time::never());
  EXPECT_EQ(s.end_time(), at(1050));
  EXPECT_TRUE(s.on_time(at(2000)).empty());
}

TEST(JobSupervisorTest, FailsOnNonZeroExitOrForeignSignal) {
  JobSupervisor a = make();
  EXPECT_EQ(a.on_exit(ProcessExit::exited(3), at(1010)), JobState::kFailed);
  EXPECT_EQ(a.exit(), ProcessExit::exited(3));
  JobSupervisor b = make();
  EXPECT_EQ(b.on_exit(ProcessExit::signalled(SIGSEGV), at(1010)), JobState::kFailed);
  JobSupervisor c = make();  // a TERM from someone else (an admin's kill) is not a timeout
  EXPECT_EQ(c.on_exit(ProcessExit::signalled(SIGTERM), at(1010)), JobState::kFailed);
}

TEST(JobSupervisorTest, WalltimeSendsTermThenKillAfterGrace) {
  JobSupervisor s = make();
  EXPECT_EQ(s.on_time(at(1100)), std::vector{group_signal(SIGTERM)});
  EXPECT_EQ(s.phase(), SupervisorPhase::kTerminating);
  EXPECT_EQ(s.stop_reason(), StopReason::kTimeout);
  EXPECT_EQ(s.deadline(), at(1131));  // the full grace, whatever part of second 1100 is left
  EXPECT_TRUE(s.on_time(at(1130)).empty());
  EXPECT_EQ(s.on_time(at(1131)), std::vector{group_signal(SIGKILL)});
  EXPECT_EQ(s.phase(), SupervisorPhase::kKilled);
  EXPECT_EQ(s.deadline(), Time::never());
  EXPECT_TRUE(s.on_time(at(1200)).empty());  // KILL is sent once
  EXPECT_EQ(s.on_exit(ProcessExit::signalled(SIGKILL), at(1131)), JobState::kTimeout);
}

TEST(JobSupervisorTest, JobEndingCleanlyAfterWalltimeTermIsStillTimeout) {
  JobSupervisor s = make();
  ASSERT_EQ(s.on_time(at(1100)).size(), 1u);
  EXPECT_EQ(s.on_exit(ProcessExit::exited(0), at(1101)), JobState::kTimeout);
}

TEST(JobSupervisorTest, LateTickWithZeroGraceSendsTermAndKillTogether) {
  JobSupervisor s = make(Duration::seconds(100), Duration::seconds(0));
  EXPECT_EQ(s.on_time(at(1500)), (std::vector{group_signal(SIGTERM), group_signal(SIGKILL)}));
}

TEST(JobSupervisorTest, ReadoptedOverdueJobIsStoppedAtOnce) {
  // A job re-adopted after an agent restart keeps its original start time.
  JobSupervisor s = make(Duration::seconds(100));
  EXPECT_EQ(s.deadline(), at(1100));
  EXPECT_EQ(s.on_time(at(5000)), std::vector{group_signal(SIGTERM)});
  EXPECT_EQ(s.deadline(), at(5031));
}

TEST(JobSupervisorTest, CancelSendsItsSignalThenKillAndEndsCancelled) {
  JobSupervisor s = make();
  EXPECT_EQ(s.on_signal_request(SIGINT, Duration::seconds(10), at(1020)), std::vector{group_signal(SIGINT)});
  EXPECT_EQ(s.stop_reason(), StopReason::kCancelled);
  EXPECT_EQ(s.deadline(), at(1031));  // the walltime no longer matters
  EXPECT_TRUE(s.on_time(at(1030)).empty());
  EXPECT_EQ(s.on_time(at(1031)), std::vector{group_signal(SIGKILL)});
  EXPECT_EQ(s.on_exit(ProcessExit::signalled(SIGKILL), at(1031)), JobState::kCancelled);
}

TEST(JobSupervisorTest, CancelWithSigkillNeedsNoFollowUp) {
  JobSupervisor s = make();
  EXPECT_EQ(s.on_signal_request(SIGKILL, Duration::seconds(10), at(1020)),
            std::vector{group_signal(SIGKILL)});
  EXPECT_EQ(s.phase(), SupervisorPhase::kKilled);
  EXPECT_EQ(s.deadline(), Time::never());
  EXPECT_EQ(s.on_exit(ProcessExit::exited(0), at(1021)), JobState::kCancelled);
}

TEST(JobSupervisorTest, CancelWithZeroGraceKillsAtOnce) {
  JobSupervisor s = make();
  EXPECT_EQ(s.on_signal_request(SIGTERM, Duration::seconds(0), at(1020)),
            (std::vector{group_signal(SIGTERM), group_signal(SIGKILL)}));
}

TEST(JobSupervisorTest, CancelDuringTimeoutGraceKeepsTimeoutAndEarlierKill) {
  JobSupervisor s = make();
  ASSERT_EQ(s.on_time(at(1100)).size(), 1u);  // TERM, KILL due at 1131
  EXPECT_EQ(s.on_signal_request(SIGTERM, Duration::seconds(60), at(1105)),
            std::vector{group_signal(SIGTERM)});
  EXPECT_EQ(s.deadline(), at(1131));
  EXPECT_EQ(s.on_signal_request(SIGTERM, Duration::seconds(5), at(1106)), std::vector{group_signal(SIGTERM)});
  EXPECT_EQ(s.deadline(), at(1112));
  EXPECT_EQ(s.stop_reason(), StopReason::kTimeout);
  EXPECT_EQ(s.on_exit(ProcessExit::signalled(SIGTERM), at(1107)), JobState::kTimeout);
}

TEST(JobSupervisorTest, SignalRequestAfterExitDoesNothing) {
  JobSupervisor s = make();
  EXPECT_EQ(s.on_exit(ProcessExit::exited(0), at(1010)), JobState::kCompleted);
  EXPECT_TRUE(s.on_signal_request(SIGTERM, Duration::seconds(5), at(1011)).empty());
  // A repeated exit report keeps the first answer.
  EXPECT_EQ(s.on_exit(ProcessExit::exited(1), at(1012)), JobState::kCompleted);
  EXPECT_EQ(s.exit(), ProcessExit::exited(0));
}

TEST(JobSupervisorTest, RejectsBadLaunchFactsNamingTheField) {
  auto bad_pid = JobSupervisor::launched(JobId(1), 0, 10, at(0), Duration::seconds(5));
  ASSERT_FALSE(bad_pid);
  EXPECT_NE(bad_pid.error().message.find("pid 0"), std::string::npos);
  auto bad_pgid = JobSupervisor::launched(JobId(1), 10, -3, at(0), Duration::seconds(5));
  ASSERT_FALSE(bad_pgid);
  EXPECT_NE(bad_pgid.error().message.find("pgid -3"), std::string::npos);
  auto bad_limit = JobSupervisor::launched(JobId(1), 10, 10, at(0), Duration::seconds(0));
  ASSERT_FALSE(bad_limit);
  EXPECT_NE(bad_limit.error().message.find("time_limit 0"), std::string::npos);
  auto bad_grace =
      JobSupervisor::launched(JobId(1), 10, 10, at(0), Duration::seconds(5), Duration::seconds(-1));
  ASSERT_FALSE(bad_grace);
  EXPECT_NE(bad_grace.error().message.find("grace -1"), std::string::npos);
}

TEST(JobSupervisorTest, InfiniteLimitNeverTimesOut) {
  JobSupervisor s = make(Duration::infinite());
  EXPECT_EQ(s.deadline(), Time::never());
  EXPECT_TRUE(s.on_time(at(1'000'000'000)).empty());
}

}  // namespace
}  // namespace fairway::agent
