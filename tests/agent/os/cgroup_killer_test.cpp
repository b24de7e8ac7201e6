// Issue 33 item 6: a job's setsid child leaves the job's process group, so signalling the
// group (what fencing and cancel did) leaves it running; with cgroups the keeper ends every
// process of the job's cgroup: when the lease runs out, when a batch job ends, and with or
// without a v1 freezer. Real cgroups (v1 on the development machine); skipped where they
// cannot be written.
#include "agent/os/cgroup_killer.h"

#include <unistd.h>
#include <csignal>
#include <ctime>

#include "agent/os/coordinator_lease_file.h"
#include "agent/os/job_cgroups.h"
#include "agent/os/process_launcher.h"
#include "tests/agent/os/os_test_support.h"

namespace fairway::agent {
namespace {

using testing::TempDir;
using namespace std::chrono_literals;

class CgroupKiller : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "cgroups need root";
    options.mode = "auto";
    options.subtree = "fairway-killer-test-" + std::to_string(::getpid());
    auto g = JobCgroups::open(options);
    if (!g || (*g)->mode() == CgroupMode::kNone) GTEST_SKIP() << "no writable cgroups here";
    cgroups = std::move(*g);
  }
  void TearDown() override {
    if (!cgroups) return;
    cgroups->remove_stale({});
    for (const char* ctrl : {"cpuset", "memory", "devices", "cpuacct", "pids", "freezer"}) {
      ::rmdir((options.root + "/" + ctrl + "/" + options.subtree).c_str());
    }
  }
  // A job whose script starts a child in a session of its own (it leaves the job's
  // process group), which writes its pid to `pid_file` and then runs `child`.
  LaunchRequest job(std::uint64_t id, const std::string& child, const std::string& then) const {
    LaunchRequest r;
    r.job = JobId(id);
    r.user = testing::job_user_name();
    r.name = "setsid";
    r.program.script = "#!/bin/sh\nsetsid sh -c 'echo $$ > " + pid_file(id) + "; " + child +
                       "' </dev/null >/dev/null 2>&1 &\n" + then + "\n";
    r.program.working_dir = work.path();
    r.cores = {0};
    r.nodelist = "node01";
    return r;
  }
  std::string pid_file(std::uint64_t id) const { return work / ("child-" + std::to_string(id)); }
  // The escaped child's pid once it wrote it; 0 when it never did.
  pid_t child_pid(std::uint64_t id) const {
    pid_t pid = 0;
    for (int i = 0; i < 200 && pid == 0; ++i) {
      const std::string text = testing::read_text(pid_file(id));
      if (!text.empty() && text.back() == '\n') pid = static_cast<pid_t>(std::stol(text));
      if (pid == 0) std::this_thread::sleep_for(20ms);
    }
    return pid;
  }
  // Running: in /proc and not a zombie (whoever adopted it may be slow to reap it).
  static bool alive(pid_t pid) {
    const std::string stat = testing::read_text("/proc/" + std::to_string(pid) + "/stat");
    const auto paren = stat.rfind(')');
    return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
  }
  static bool gone_within(pid_t pid, std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
      if (!alive(pid)) return true;
      std::this_thread::sleep_for(20ms);
    }
    return !alive(pid);
  }
  CgroupLimits limits(std::uint64_t id) const {
    return CgroupLimits{JobId(id), {0}, {}, std::nullopt, {}, std::nullopt};
  }

  CgroupOptions options;
  std::unique_ptr<JobCgroups> cgroups;
  TempDir work;
  TempDir spool;
};

TEST_F(CgroupKiller, FencingEndsAChildThatLeftTheJobsProcessGroup) {
  CoordinatorLeaseFile lease(spool.path());
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  ASSERT_TRUE(lease.publish(Time::from_seconds(ts.tv_sec + 2)));
  auto attach = cgroups->prepare(limits(1));
  ASSERT_TRUE(attach) << attach.error().message;
  ProcessLauncher launcher(LauncherConfig{spool.path(), true, Duration::seconds(1)});
  // The attack: the escaped child ignores TERM too and outlives the job, so the job would
  // run twice once the coordinator starts it again elsewhere.
  auto launched = launcher.launch(job(1, "trap \"\" TERM; while :; do sleep 1; done", "sleep 300"), &*attach);
  ASSERT_TRUE(launched) << launched.error().message;
  const pid_t child = child_pid(1);
  ASSERT_GT(child, 0);
  ASSERT_TRUE(testing::wait_for_exit(launched->pid, 15s)) << "the keeper did not fence";
  EXPECT_TRUE(gone_within(child, 3s)) << "the setsid child outlived its fenced job";
  EXPECT_TRUE(cgroups->remove(JobId(1)));
}

TEST_F(CgroupKiller, ABatchJobsEndEndsWhatItLeftBehind) {
  auto attach = cgroups->prepare(limits(2));
  ASSERT_TRUE(attach) << attach.error().message;
  ProcessLauncher launcher(LauncherConfig{spool.path(), true});
  auto launched = launcher.launch(job(2, "exec sleep 300", "sleep 0.5; exit 3"), &*attach);
  ASSERT_TRUE(launched) << launched.error().message;
  const pid_t child = child_pid(2);
  ASSERT_GT(child, 0);
  EXPECT_EQ(testing::wait_for_exit(launched->pid, 10s), ProcessExit::exited(3));
  // Before the agent removes the cgroup (an agent that is down does not): already gone.
  EXPECT_TRUE(gone_within(child, 1s)) << "the setsid child outlived its job";
  EXPECT_TRUE(cgroups->remove(JobId(2)));
}

TEST_F(CgroupKiller, AStepsEndLeavesTheJobRunning) {
  auto attach = cgroups->prepare(limits(3));
  ASSERT_TRUE(attach) << attach.error().message;
  ProcessLauncher launcher(LauncherConfig{spool.path(), true});
  // The job's other processes share the cgroup with the step: the batch script here.
  auto batch = launcher.launch(job(3, "exec sleep 300", "sleep 300"), &*attach);
  ASSERT_TRUE(batch) << batch.error().message;
  const pid_t child = child_pid(3);
  ASSERT_GT(child, 0);
  auto step_attach = cgroups->prepare(limits(3));
  ASSERT_TRUE(step_attach);
  LaunchRequest step = job(3, "true", "true");
  step.program.script.clear();
  step.program.argv = {"/bin/true"};
  step.step = 0;
  auto launched = launcher.launch(step, &*step_attach);
  ASSERT_TRUE(launched) << launched.error().message;
  EXPECT_EQ(testing::wait_for_exit(launched->pid, 10s), ProcessExit::exited(0));
  std::this_thread::sleep_for(200ms);
  EXPECT_TRUE(alive(child)) << "a step's end killed the job's processes";
  EXPECT_TRUE(cgroups->remove(JobId(3)));
  EXPECT_TRUE(testing::wait_for_exit(batch->pid, 10s));
}

// v1 without a freezer: each pid listed is killed until the list is empty, a process that
// keeps forking included.
TEST_F(CgroupKiller, WithoutAFreezerAForkingCgroupIsEmptiedAllTheSame) {
  auto attach = cgroups->prepare(limits(4));
  ASSERT_TRUE(attach) << attach.error().message;
  CgroupKillPlan plan = attach->kill_plan;
  ASSERT_FALSE(plan.empty());
  plan.freezer_state.clear();
  plan.kill_file.clear();
  ProcessLauncher launcher(LauncherConfig{spool.path(), true});
  auto launched =
      launcher.launch(job(4, "while :; do sleep 0.01 & sleep 0.005; done", "sleep 300"), &*attach);
  ASSERT_TRUE(launched) << launched.error().message;
  const pid_t child = child_pid(4);
  ASSERT_GT(child, 0);
  std::this_thread::sleep_for(200ms);
  EXPECT_TRUE(kill_cgroup(plan, 5000));
  EXPECT_EQ(testing::read_text(plan.procs_file), "");
  EXPECT_TRUE(gone_within(child, 1s));
  EXPECT_TRUE(testing::wait_for_exit(launched->pid, 10s));
  EXPECT_TRUE(cgroups->remove(JobId(4)));
}

TEST_F(CgroupKiller, NoCgroupIsNothingToDo) {
  EXPECT_TRUE(kill_cgroup(CgroupKillPlan{}, 0));
  signal_cgroup(CgroupKillPlan{}, SIGTERM);  // no-op, no crash
}

}  // namespace
}  // namespace fairway::agent
