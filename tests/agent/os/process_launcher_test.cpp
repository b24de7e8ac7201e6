#include "agent/os/process_launcher.h"

#include "agent/os/coordinator_lease_file.h"
#include "agent/os/exit_record.h"
#include "agent/os/launch_checkpoint.h"
#include "agent/os/proc_stat.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <csignal>
#include <fstream>

#include "tests/agent/os/os_test_support.h"

namespace fairway::agent {
namespace {

using testing::TempDir;

// What the job's keeper recorded: its exit, and whether it fenced the job itself.
std::optional<ProcessExit> recorded_exit(const std::string& spool, std::uint64_t job) {
  auto r = read_exit_record(spool, JobId(job));
  return r && *r ? std::optional((*r)->exit) : std::nullopt;
}
bool recorded_fenced(const std::string& spool, std::uint64_t job) {
  auto r = read_exit_record(spool, JobId(job));
  return r && *r && (*r)->fenced;
}

class ProcessLauncherTest : public ::testing::Test {
 protected:
  LaunchRequest request(std::uint64_t job, std::string script) const {
    LaunchRequest r;
    r.job = JobId(job);
    r.user = testing::job_user_name();
    r.account = "physics";
    r.partition = "batch";
    r.name = "test-job";
    r.program.script = std::move(script);
    r.program.working_dir = work.path();
    r.cores = {0};
    r.nodelist = "node01";
    return r;
  }
  ProcessLauncher launcher(bool allow_root_jobs = true) const {
    return ProcessLauncher(LauncherConfig{spool.path(), allow_root_jobs});
  }
  // Every launch error must leave no child behind, running or zombie.
  void expect_no_children() const { EXPECT_TRUE(testing::children_of_this_process().empty()); }

  TempDir work;
  TempDir spool;
};

TEST_F(ProcessLauncherTest, ScriptRunsInWorkingDirWithJobEnvironment) {
  LaunchRequest r = request(42,
                            "#!/bin/sh\n"
                            "echo \"id=$FAIRWAY_JOB_ID slurm=$SLURM_JOB_ID cpus=$FAIRWAY_CPUS "
                            "cuda=$CUDA_VISIBLE_DEVICES nodes=$SLURM_JOB_NODELIST\"\n"
                            "echo \"cwd=$(pwd) part=$SLURM_JOB_PARTITION acct=$SLURM_JOB_ACCOUNT\"\n"
                            "echo to-stderr >&2\n"
                            "exit 3\n");
  r.cores = {2, 3};
  r.gpus = {1};
  auto launched = launcher().launch(r);
  ASSERT_TRUE(launched) << launched.error().message;
  // The agent's child is the job's keeper; the job leads its own process group.
  EXPECT_NE(launched->pgid, launched->pid);
  EXPECT_EQ(launched->script_path, spool / "fairway-job-42.sh");
  const auto exit = testing::wait_for_exit(launched->pid);
  ASSERT_TRUE(exit);
  EXPECT_EQ(*exit, ProcessExit::exited(3));  // the keeper ends as the job ended
  auto record = read_exit_record(spool.path(), JobId(42));
  ASSERT_TRUE(record) << record.error().message;
  ASSERT_TRUE(record->has_value());
  EXPECT_EQ((*record)->exit, ProcessExit::exited(3));
  EXPECT_FALSE((*record)->fenced);
  // What the script used, as wait4 told its keeper (sacct's MaxRSS and TotalCPU).
  ASSERT_TRUE((*record)->max_rss_kb.has_value());
  EXPECT_GT(*(*record)->max_rss_kb, 0);
  EXPECT_TRUE((*record)->cpu_us.has_value());
  const std::string out = testing::read_text(work / "fairway-42.out");
  EXPECT_NE(out.find("id=42 slurm=42 cpus=2,3 cuda=1 nodes=node01\n"), std::string::npos) << out;
  EXPECT_NE(out.find("cwd=" + work.path() + " part=batch acct=physics\n"), std::string::npos) << out;
  EXPECT_NE(out.find("to-stderr\n"), std::string::npos) << out;  // stderr defaults to stdout
  EXPECT_TRUE(launcher().clean_up(JobId(42)));
  EXPECT_FALSE(std::filesystem::exists(launched->script_path));
}

TEST_F(ProcessLauncherTest, OutputPathsExpandJobIdAndAreRelativeToWorkingDir) {
  std::filesystem::create_directory(work / "logs");
  ::chmod((work / "logs").c_str(), 0777);
  LaunchRequest r = request(7, "echo out; echo err >&2\n");  // no #!: /bin/sh
  r.program.stdout_path = "logs/%j.o";
  r.program.stderr_path = work / "logs/%j.e";
  auto launched = launcher().launch(r);
  ASSERT_TRUE(launched) << launched.error().message;
  ASSERT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::exited(0));
  EXPECT_EQ(testing::read_text(work / "logs/7.o"), "out\n");
  EXPECT_EQ(testing::read_text(work / "logs/7.e"), "err\n");
}

// sbatch truncates a job's output files unless --open-mode=append; neither adds the banner
// that marks a requeued job's next attempt.
TEST_F(ProcessLauncherTest, OutputIsTruncatedUnlessAppendIsAsked) {
  const auto out = work / "out.txt";
  for (const bool append : {false, true}) {
    { std::ofstream(out) << "before\n"; }
    ::chmod(out.c_str(), 0666);
    LaunchRequest r = request(append ? 9 : 8, "echo now\n");
    r.program.stdout_path = out;
    r.append_output = append;
    auto launched = launcher().launch(r);
    ASSERT_TRUE(launched) << launched.error().message;
    ASSERT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::exited(0));
    EXPECT_EQ(testing::read_text(out), append ? "before\nnow\n" : "now\n") << "append " << append;
  }
}

TEST_F(ProcessLauncherTest, ArgvJobIsFoundInPath) {
  LaunchRequest r = request(8, "");
  r.program.argv = {"echo", "hello", "world"};
  r.program.env = {{"PATH", "/nonexistent:/usr/bin:/bin"}};
  auto launched = launcher().launch(r);
  ASSERT_TRUE(launched) << launched.error().message;
  EXPECT_TRUE(launched->script_path.empty());
  ASSERT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::exited(0));
  EXPECT_EQ(testing::read_text(work / "fairway-8.out"), "hello world\n");
}

TEST_F(ProcessLauncherTest, FairwayVariablesOverrideTheSubmittersOnes) {
  LaunchRequest r = request(9, "echo \"$SLURM_JOB_ID $FOO $FAIRWAY_GPUS $CUDA_VISIBLE_DEVICES\"\n");
  r.program.env = {{"SLURM_JOB_ID", "999"}, {"FOO", "first"}, {"FOO", "second"}};
  r.gpus = {0, 2};
  r.gpu_visible_ids = {"GPU-a", "GPU-c"};
  auto launched = launcher().launch(r);
  ASSERT_TRUE(launched) << launched.error().message;
  ASSERT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::exited(0));
  EXPECT_EQ(testing::read_text(work / "fairway-9.out"), "9 second 0,2 GPU-a,GPU-c\n");
}

// As slurmstepd: the script sees its own pid as SLURM_TASK_PID, not the submitter's.
TEST_F(ProcessLauncherTest, TheScriptSeesItsOwnPidAsSlurmTaskPid) {
  LaunchRequest r = request(10, "echo \"$SLURM_TASK_PID $$\"\n");
  r.program.env = {{"SLURM_TASK_PID", "4242"}};
  auto launched = launcher().launch(r);
  ASSERT_TRUE(launched) << launched.error().message;
  ASSERT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::exited(0));
  const std::string pid = std::to_string(launched->pgid);  // the script itself
  EXPECT_EQ(testing::read_text(work / "fairway-10.out"), pid + " " + pid + "\n");
}

TEST_F(ProcessLauncherTest, SignalGroupKillsTheJobAndWhatItSpawned) {
  auto launched = launcher().launch(request(10, "sleep 100 & sleep 100; wait\n"));
  ASSERT_TRUE(launched) << launched.error().message;
  // Wait until the shell and both sleeps are in the job's process group.
  std::vector<pid_t> group;
  for (int i = 0; i < 500 && group.size() < 3; ++i) {
    group.clear();
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
      const std::string name = entry.path().filename();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      const auto stat = read_proc_stat(static_cast<pid_t>(std::stol(name)));
      if (stat && stat->pgid == launched->pgid && !stat->is_dead()) {
        group.push_back(static_cast<pid_t>(std::stol(name)));
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(group.size(), 3u);
  ASSERT_TRUE(ChildReaper::signal_group(launched->pgid, SIGTERM));
  EXPECT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::signalled(SIGTERM));
  EXPECT_EQ(recorded_exit(spool.path(), 10), std::optional(ProcessExit::signalled(SIGTERM)));
  for (int i = 0; i < 200; ++i) {
    bool all_gone = true;
    for (const pid_t pid : group) all_gone = all_gone && testing::process_is_gone(pid);
    if (all_gone) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (const pid_t pid : group) EXPECT_TRUE(testing::process_is_gone(pid)) << "pid " << pid;
  // A second signal to the vanished group is not an error.
  EXPECT_TRUE(ChildReaper::signal_group(launched->pgid, SIGKILL));
}

TEST_F(ProcessLauncherTest, BindsToTheRequestedPus) {
  LaunchRequest r = request(11, "grep Cpus_allowed_list /proc/self/status\n");
  r.bind_pus = {0};
  auto launched = launcher().launch(r);
  ASSERT_TRUE(launched) << launched.error().message;
  ASSERT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::exited(0));
  EXPECT_EQ(testing::read_text(work / "fairway-11.out"), "Cpus_allowed_list:\t0\n");
}

TEST_F(ProcessLauncherTest, BindingToAMissingPuFailsClearly) {
  LaunchRequest r = request(12, "true\n");
  r.bind_pus = {1000};
  auto launched = launcher().launch(r);
  ASSERT_FALSE(launched);
  EXPECT_NE(launched.error().message.find("bind to PUs 1000 (sched_setaffinity)"), std::string::npos)
      << launched.error().message;
  expect_no_children();
}

TEST_F(ProcessLauncherTest, MissingWorkingDirFailsNamingIt) {
  LaunchRequest r = request(13, "true\n");
  r.program.working_dir = work / "does-not-exist";
  auto launched = launcher().launch(r);
  ASSERT_FALSE(launched);
  EXPECT_EQ(launched.error().code, ErrorCode::kNotFound);
  EXPECT_NE(launched.error().message.find("job 13: chdir to working_dir '" + r.program.working_dir +
                                          "': No such file or directory"),
            std::string::npos)
      << launched.error().message;
  expect_no_children();
  EXPECT_FALSE(std::filesystem::exists(spool / "fairway-job-13.sh"));  // no stale script
}

TEST_F(ProcessLauncherTest, RelativeWorkingDirIsRefused) {
  LaunchRequest r = request(14, "true\n");
  r.program.working_dir = "relative/dir";
  auto launched = launcher().launch(r);
  ASSERT_FALSE(launched);
  EXPECT_NE(launched.error().message.find("working_dir 'relative/dir' is not an absolute path"),
            std::string::npos)
      << launched.error().message;
}

TEST_F(ProcessLauncherTest, UnknownUserFailsNamingIt) {
  LaunchRequest r = request(15, "true\n");
  r.user = "fairway-no-such-user";
  auto launched = launcher().launch(r);
  ASSERT_FALSE(launched);
  EXPECT_EQ(launched.error().code, ErrorCode::kNotFound);
  EXPECT_NE(launched.error().message.find("unknown user 'fairway-no-such-user'"), std::string::npos)
      << launched.error().message;
  expect_no_children();
}

TEST_F(ProcessLauncherTest, UnwritableOutputPathFailsNamingIt) {
  LaunchRequest r = request(16, "true\n");
  r.program.stdout_path = "/nonexistent-fairway-dir/out-%j.txt";
  auto launched = launcher().launch(r);
  ASSERT_FALSE(launched);
  EXPECT_NE(launched.error().message.find(
                "open stdout file '/nonexistent-fairway-dir/out-16.txt': No such file or directory"),
            std::string::npos)
      << launched.error().message;
  expect_no_children();
}

TEST_F(ProcessLauncherTest, MissingInterpreterFailsAtExec) {
  auto launched = launcher().launch(request(17, "#!/nonexistent/interpreter -x\necho hi\n"));
  ASSERT_FALSE(launched);
  EXPECT_NE(launched.error().message.find("exec '/nonexistent/interpreter'"), std::string::npos)
      << launched.error().message;
  expect_no_children();
}

TEST_F(ProcessLauncherTest, UnknownArgvCommandFailsNamingIt) {
  LaunchRequest r = request(18, "");
  r.program.argv = {"fairway-no-such-command"};
  auto launched = launcher().launch(r);
  ASSERT_FALSE(launched);
  EXPECT_NE(launched.error().message.find("command 'fairway-no-such-command' not found"), std::string::npos)
      << launched.error().message;
}

TEST_F(ProcessLauncherTest, BadRequestsAreRefusedBeforeForking) {
  LaunchRequest empty = request(19, "");
  auto a = launcher().launch(empty);
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("neither a script nor argv"), std::string::npos);
  LaunchRequest no_nodes = request(19, "true\n");
  no_nodes.nodelist.clear();
  auto b = launcher().launch(no_nodes);
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find("nodelist is empty"), std::string::npos);
  LaunchRequest ids = request(19, "true\n");
  ids.gpus = {0, 1};
  ids.gpu_visible_ids = {"0"};
  auto c = launcher().launch(ids);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("gpu_visible_ids has 1 entries for 2 GPUs"), std::string::npos);
  LaunchRequest bad_env = request(19, "true\n");
  bad_env.program.env = {{"A=B", "x"}};
  auto d = launcher().launch(bad_env);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("variable name 'A=B'"), std::string::npos);
  expect_no_children();
}

// The CI runs as root: these check the switch to the job's user.
class ProcessLauncherAsRootTest : public ProcessLauncherTest {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to switch users";
  }
};

TEST_F(ProcessLauncherAsRootTest, JobRunsAsItsUser) {
  const passwd* nobody = ::getpwnam("nobody");
  ASSERT_NE(nobody, nullptr);
  const uid_t nobody_uid = nobody->pw_uid;
  LaunchRequest r = request(20, "#!/bin/sh\nid -u\nid -g\n");
  r.user = "nobody";
  auto launched = launcher(false).launch(r);
  ASSERT_TRUE(launched) << launched.error().message;
  struct stat script {};
  ASSERT_EQ(::stat(launched->script_path.c_str(), &script), 0);
  EXPECT_EQ(script.st_uid, nobody_uid);
  EXPECT_EQ(script.st_mode & 07777, 0700u);
  ASSERT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::exited(0));
  const std::string out_path = work / "fairway-20.out";
  EXPECT_EQ(testing::read_text(out_path),
            std::to_string(nobody_uid) + "\n" + std::to_string(nobody->pw_gid) + "\n");
  struct stat out {};
  ASSERT_EQ(::stat(out_path.c_str(), &out), 0);
  EXPECT_EQ(out.st_uid, nobody_uid);  // created by the job's user, not by root
}

TEST_F(ProcessLauncherAsRootTest, JobUserCannotWriteWhereItHasNoRight) {
  TempDir root_only;
  ::chmod(root_only.path().c_str(), 0755);
  LaunchRequest r = request(21, "true\n");
  r.user = "nobody";
  r.program.stdout_path = root_only / "out";
  auto launched = launcher(false).launch(r);
  ASSERT_FALSE(launched);
  EXPECT_EQ(launched.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_NE(
      launched.error().message.find("open stdout file '" + root_only.path() + "/out': Permission denied"),
      std::string::npos)
      << launched.error().message;
  expect_no_children();
}

TEST_F(ProcessLauncherAsRootTest, RootJobsAreRefusedUnlessAllowed) {
  LaunchRequest r = request(22, "id -u\n");
  r.user = "root";
  auto refused = launcher(false).launch(r);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_NE(refused.error().message.find("user 'root' has uid 0 and root jobs are not allowed"),
            std::string::npos)
      << refused.error().message;
  expect_no_children();
  auto allowed = launcher(true).launch(r);
  ASSERT_TRUE(allowed) << allowed.error().message;
  ASSERT_EQ(testing::wait_for_exit(allowed->pid), ProcessExit::exited(0));
  EXPECT_EQ(testing::read_text(work / "fairway-22.out"), "0\n");
}

}  // namespace
}  // namespace fairway::agent

namespace fairway::agent {
namespace {

class ProcessLauncherHygieneTest : public ProcessLauncherTest {};

TEST_F(ProcessLauncherHygieneTest, AgentDescriptorsDoNotLeakIntoTheJob) {
  const int fd = ::open("/dev/null", O_RDONLY);  // deliberately not CLOEXEC
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::dup2(fd, 57), 57);
  auto launched =
      launcher().launch(request(30, "if [ -e /proc/$$/fd/57 ]; then echo leaked; else echo clean; fi\n"));
  ::close(57);
  ::close(fd);
  ASSERT_TRUE(launched) << launched.error().message;
  ASSERT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::exited(0));
  EXPECT_EQ(testing::read_text(work / "fairway-30.out"), "clean\n");
}

TEST_F(ProcessLauncherHygieneTest, JobStartsWithNoBlockedOrIgnoredSignals) {
  sigset_t blocked, previous;
  ::sigemptyset(&blocked);
  ::sigaddset(&blocked, SIGUSR2);
  ASSERT_EQ(::sigprocmask(SIG_BLOCK, &blocked, &previous), 0);
  struct sigaction ignore {
  }, old_pipe{};
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(::sigaction(SIGPIPE, &ignore, &old_pipe), 0);
  auto launched = launcher().launch(request(31, "grep -E '^(SigBlk|SigIgn)' /proc/self/status\n"));
  ::sigprocmask(SIG_SETMASK, &previous, nullptr);
  ::sigaction(SIGPIPE, &old_pipe, nullptr);
  ASSERT_TRUE(launched) << launched.error().message;
  ASSERT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::exited(0));
  EXPECT_EQ(testing::read_text(work / "fairway-31.out"),
            "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n");
}

// The keeper outlives whoever launched it and still records the job's end: what an agent
// restarted meanwhile reads (issue 9: the real exit code, not a lost job).
TEST_F(ProcessLauncherTest, TheKeeperRecordsTheExitWhenNobodyWaits) {
  auto launched = launcher().launch(request(60, "sleep 0.3; exit 7\n"));
  ASSERT_TRUE(launched) << launched.error().message;
  EXPECT_EQ(recorded_exit(spool.path(), 60), std::nullopt);  // still running
  // Nobody reaps the keeper for a while: the record appears all the same.
  for (int i = 0; i < 300; ++i) {
    if (std::filesystem::exists(exit_record_path(spool.path(), JobId(60)))) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(recorded_exit(spool.path(), 60), std::optional(ProcessExit::exited(7)));
  EXPECT_FALSE(recorded_fenced(spool.path(), 60));
  EXPECT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::exited(7));
  ASSERT_TRUE(remove_exit_record(spool.path(), JobId(60)));
  EXPECT_FALSE(std::filesystem::exists(exit_record_path(spool.path(), JobId(60))));
  EXPECT_TRUE(remove_exit_record(spool.path(), JobId(60)));  // none left: not an error
}

// The agent is gone (killed -9) and its lease ran out: the keeper stops the job itself,
// TERM then KILL after the grace, so the job cannot run on while the coordinator starts it
// elsewhere (issue 9: nothing runs twice).
TEST_F(ProcessLauncherTest, TheKeeperFencesTheJobWhenTheLeaseRunsOut) {
  CoordinatorLeaseFile lease(spool.path());
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  ASSERT_TRUE(lease.publish(Time::from_seconds(ts.tv_sec + 1)));
  auto launcher_with_grace = ProcessLauncher(LauncherConfig{spool.path(), true, Duration::seconds(1)});
  auto launched = launcher_with_grace.launch(request(61, "trap '' TERM; sleep 60\n"));
  ASSERT_TRUE(launched) << launched.error().message;
  const auto t0 = std::chrono::steady_clock::now();
  const auto exit = testing::wait_for_exit(launched->pid);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // TERM is ignored by the shell, not by the sleep it waits for: either ends the job.
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit->kind, ProcessExit::Kind::kSignalled);
  EXPECT_LT(waited, 10.0) << "the keeper did not fence";
  EXPECT_TRUE(recorded_exit(spool.path(), 61).has_value());
  // Its record says the keeper stopped it: the agent reports the node's failure, and the
  // coordinator requeues the job rather than failing it.
  EXPECT_TRUE(recorded_fenced(spool.path(), 61));
}

// The spool wiped under a running job (its lease file gone): the keeper goes by the last
// deadline it read, so the job does not outlive its lease forever.
TEST_F(ProcessLauncherTest, AVanishedLeaseFileStillFencesAtTheLastDeadline) {
  CoordinatorLeaseFile lease(spool.path());
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  ASSERT_TRUE(lease.publish(Time::from_seconds(ts.tv_sec + 1)));
  auto launcher_with_grace = ProcessLauncher(LauncherConfig{spool.path(), true, Duration::seconds(1)});
  auto launched = launcher_with_grace.launch(request(65, "exec sleep 60\n"));
  ASSERT_TRUE(launched) << launched.error().message;
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the keeper has read it
  std::filesystem::remove(coordinator_lease_path(spool.path()));
  const auto t0 = std::chrono::steady_clock::now();
  const auto exit = testing::wait_for_exit(launched->pid);
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit->kind, ProcessExit::Kind::kSignalled);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
}

// The keeper writes the job's checkpoint before the agent hears the job runs: an agent
// killed mid-launch finds the job after a restart (the chaos test saw a completed job
// run again when the agent died between the fork and its own checkpoint).
TEST_F(ProcessLauncherTest, TheKeeperWritesTheCheckpointBeforeTheLaunchReturns) {
  LaunchRequest r = request(66, "sleep 0.5\n");
  r.checkpoint_text = format_checkpoint_without_process(
      JobCheckpoint{JobId(66), 0, 0, Time::from_seconds(1000), Duration::seconds(60), {0}, {}, 0});
  auto launched = launcher().launch(r);
  ASSERT_TRUE(launched) << launched.error().message;
  const LaunchCheckpoint checkpoints(spool.path());
  const CheckpointScan scan = checkpoints.load_all();
  ASSERT_EQ(scan.live.size(), 1u) << (scan.errors.empty() ? "" : scan.errors.front().message);
  EXPECT_EQ(scan.live[0].job, JobId(66));
  EXPECT_EQ(scan.live[0].pid, launched->pid);
  EXPECT_EQ(scan.live[0].pgid, launched->pgid);
  EXPECT_EQ(scan.live[0].process_start_ticks, 0u);
  EXPECT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::exited(0));
  // A launch that fails leaves no checkpoint behind.
  LaunchRequest bad = request(67, "true\n");
  bad.program.working_dir = work.path() + "/missing";
  bad.checkpoint_text = format_checkpoint_without_process(
      JobCheckpoint{JobId(67), 0, 0, Time::from_seconds(1000), Duration::seconds(60), {0}, {}, 0});
  EXPECT_FALSE(launcher().launch(bad));
  EXPECT_FALSE(std::filesystem::exists(checkpoints.path_of(JobId(67))));
}

TEST_F(ProcessLauncherTest, ARenewedLeaseKeepsTheJobRunning) {
  CoordinatorLeaseFile lease(spool.path());
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  ASSERT_TRUE(lease.publish(Time::from_seconds(ts.tv_sec + 3600)));
  auto launched = launcher().launch(request(62, "sleep 2.5; exit 0\n"));
  ASSERT_TRUE(launched) << launched.error().message;
  EXPECT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::exited(0));
}

TEST_F(ProcessLauncherTest, AnUnreadableExitRecordIsAnErrorNamingIt) {
  std::ofstream(exit_record_path(spool.path(), JobId(63))) << "exploded 9\n";
  auto record = read_exit_record(spool.path(), JobId(63));
  ASSERT_FALSE(record);
  EXPECT_NE(record.error().message.find("exploded 9"), std::string::npos) << record.error().message;
  std::ofstream(exit_record_path(spool.path(), JobId(64))) << "exited 999\n";
  EXPECT_FALSE(read_exit_record(spool.path(), JobId(64)));
  // An older keeper's record has no usage; a garbled figure is dropped, the exit kept.
  std::ofstream(exit_record_path(spool.path(), JobId(65))) << "signalled 15 fenced\n";
  EXPECT_EQ(read_exit_record(spool.path(), JobId(65)).value(),
            std::optional(ExitRecord{ProcessExit::signalled(15), true}));
  std::ofstream(exit_record_path(spool.path(), JobId(66))) << "exited 0 rss_kb=-4 cpu_us=1200 later=1\n";
  EXPECT_EQ(read_exit_record(spool.path(), JobId(66)).value(),
            std::optional(ExitRecord{ProcessExit::exited(0), false, std::nullopt, 1200}));
}

}  // namespace
}  // namespace fairway::agent
