// The supervisor (agent/core) driving real signals (agent/os) on a real job.
#include <csignal>

#include "agent/core/job_supervisor.h"
#include "agent/os/process_launcher.h"
#include "tests/agent/os/os_test_support.h"

namespace fairway::agent {
namespace {

using testing::TempDir;

TEST(WalltimeEnforcementTest, JobIgnoringTermIsKilledAfterGraceAndEndsTimeout) {
  TempDir work;
  TempDir spool;
  LaunchRequest r;
  r.job = JobId(77);
  r.user = testing::job_user_name();
  r.program.script = "trap '' TERM\necho started\nwhile :; do sleep 0.1; done\n";
  r.program.working_dir = work.path();
  r.nodelist = "node01";
  const ProcessLauncher launcher(LauncherConfig{spool.path(), true});
  auto launched = launcher.launch(r);
  ASSERT_TRUE(launched) << launched.error().message;

  const auto t0 = std::chrono::steady_clock::now();
  auto now = [&] {
    const auto elapsed = std::chrono::steady_clock::now() - t0;
    return Time::from_seconds(std::chrono::duration_cast<std::chrono::seconds>(elapsed).count());
  };
  auto supervisor = JobSupervisor::launched(r.job, launched->pid, launched->pgid, now(), Duration::seconds(1),
                                            Duration::seconds(1));
  ASSERT_TRUE(supervisor);
  std::vector<std::pair<std::int32_t, std::int64_t>> sent;  // signal, second sent
  std::optional<JobState> final_state;
  ChildReaper reaper;
  while (!final_state && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5)) {
    for (const auto& action : supervisor->on_time(now())) {
      ASSERT_EQ(action.kind, SupervisorActionKind::kSignalGroup);
      ASSERT_TRUE(ChildReaper::signal_group(static_cast<pid_t>(action.pgid), action.signal));
      sent.emplace_back(action.signal, now().seconds());
    }
    auto reaped = reaper.reap();
    ASSERT_TRUE(reaped);
    for (const auto& child : *reaped) {
      if (child.pid == launched->pid) final_state = supervisor->on_exit(child.exit, now());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!final_state) {  // leave nothing behind on failure
    ChildReaper::signal_group(launched->pgid, SIGKILL);
    testing::wait_for_exit(launched->pid);
  }
  ASSERT_TRUE(final_state) << "the job outlived its walltime and grace";
  EXPECT_EQ(*final_state, JobState::kTimeout);
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].first, SIGTERM);
  EXPECT_GE(sent[0].second, 1);
  EXPECT_EQ(sent[1].first, SIGKILL);
  EXPECT_GE(sent[1].second, 2);
  // It survived the TERM (it traps it), so only the KILL ended it.
  EXPECT_EQ(supervisor->exit(), ProcessExit::signalled(SIGKILL));
  EXPECT_EQ(testing::read_text(work / "fairway-77.out"), "started\n");
}

}  // namespace
}  // namespace fairway::agent
