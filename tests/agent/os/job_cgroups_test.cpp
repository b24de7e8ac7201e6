// Per-job cgroups on this machine's kernel: jobs launched through the real launcher into
// real cgroups (v1 here: cpuset, memory, devices; the v2 device program on the unified
// mount). A job that widens its own affinity keeps its CPU, one that outgrows its memory
// is OOM-killed and counted, one that opens a GPU it was not given is refused. Skipped
// with a message where cgroups cannot be written (not root, no hierarchy).
#include "agent/os/job_cgroups.h"

#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "agent/os/exit_record.h"
#include "agent/os/process_launcher.h"
#include "tests/agent/os/os_test_support.h"

namespace fairway::agent {
namespace {

using testing::TempDir;

class JobCgroupsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "cgroups need root";
    options.mode = "v1";
    options.subtree = "fairway-test-" + std::to_string(::getpid());
    auto g = JobCgroups::open(options);
    if (!g) GTEST_SKIP() << "no writable cgroup v1 here: " << g.error().message;
    cgroups = std::move(*g);
  }
  void TearDown() override {
    if (!cgroups) return;
    cgroups->remove_stale({});
    for (const char* ctrl : {"cpuset", "memory", "devices", "cpuacct", "pids", "freezer"}) {
      ::rmdir((options.root + "/" + ctrl + "/" + options.subtree).c_str());
    }
  }

  // Runs `script` as job `id` in a cgroup with `limits`; returns its exit.
  std::optional<ProcessExit> run(std::uint64_t id, const std::string& script, CgroupLimits limits) {
    limits.job = JobId(id);
    auto attach = cgroups->prepare(limits);
    EXPECT_TRUE(attach) << attach.error().message;
    if (!attach) return std::nullopt;
    LaunchRequest r;
    r.job = JobId(id);
    r.user = testing::job_user_name();
    r.name = "cg";
    r.program.script = "#!/bin/sh\n" + script;
    r.program.working_dir = work.path();
    r.cores = {0};
    r.nodelist = "node01";
    ProcessLauncher launcher(LauncherConfig{spool.path(), true});
    auto launched = launcher.launch(r, &*attach);
    EXPECT_TRUE(launched) << launched.error().message;
    if (!launched) return std::nullopt;
    return testing::wait_for_exit(launched->pid, std::chrono::seconds(20));
  }
  std::string output(std::uint64_t id) {
    return testing::read_text(work / ("fairway-" + std::to_string(id) + ".out"));
  }

  CgroupOptions options;
  std::unique_ptr<JobCgroups> cgroups;
  TempDir work;
  TempDir spool;
};

TEST_F(JobCgroupsTest, AJobThatWidensItsAffinityStillRunsOnlyOnItsCpu) {
  EXPECT_EQ(cgroups->mode(), CgroupMode::kV1);
  EXPECT_NE(cgroups->description().find("cpuset"), std::string::npos);
  auto exit = run(1,
                  "taskset -cp 0-1023 $$ >/dev/null 2>&1\n"
                  "grep Cpus_allowed_list /proc/self/status\n",
                  CgroupLimits{{}, {0}, {}, std::nullopt, {}, std::nullopt});
  ASSERT_TRUE(exit);
  EXPECT_EQ(*exit, ProcessExit::exited(0));
  EXPECT_EQ(output(1), "Cpus_allowed_list:\t0\n");
  EXPECT_TRUE(cgroups->exists(JobId(1)));
  const JobUsage u = cgroups->usage(JobId(1));
  EXPECT_TRUE(u.peak_memory_bytes.has_value());
  EXPECT_EQ(u.oom_kills, 0);
  EXPECT_TRUE(cgroups->remove(JobId(1)));
  EXPECT_FALSE(cgroups->exists(JobId(1)));
}

TEST_F(JobCgroupsTest, AJobOverItsMemoryIsKilledAndCounted) {
  // dd's 512 MiB block must be allocated and filled; the limit is 64 MiB.
  auto exit = run(2, "dd if=/dev/zero of=/dev/null bs=512M count=1 2>/dev/null\necho survived $?\n",
                  CgroupLimits{{}, {0}, {}, std::int64_t{64} << 20, {}, std::nullopt});
  ASSERT_TRUE(exit);
  const JobUsage u = cgroups->usage(JobId(2));
  EXPECT_GE(u.oom_kills, 1);
  ASSERT_TRUE(u.peak_memory_bytes);
  EXPECT_LE(*u.peak_memory_bytes, std::int64_t{64} << 20);
  EXPECT_GT(*u.peak_memory_bytes, std::int64_t{32} << 20);
  EXPECT_NE(output(2).find("survived 137"), std::string::npos) << output(2);  // dd got SIGKILL
  EXPECT_TRUE(cgroups->remove(JobId(2)));
}

TEST_F(JobCgroupsTest, AForkBombStopsAtItsPidsLimit) {
  if (::access((options.root + "/pids/" + options.subtree).c_str(), F_OK) != 0)
    GTEST_SKIP() << "no pids hierarchy";
  CgroupLimits l{{}, {0}, {}, std::nullopt, {}, std::nullopt};
  l.max_pids = 8;
  std::string script = "for i in";
  for (int i = 1; i <= 40; ++i) script += " " + std::to_string(i);
  script += "; do sleep 3 & echo ok; done\n";
  auto exit = run(5, script, l);
  ASSERT_TRUE(exit);
  const std::string out = output(5);
  int started = 0;
  for (std::size_t at = out.find("ok\n"); at != std::string::npos; at = out.find("ok\n", at + 1)) ++started;
  EXPECT_NE(out.find("fork"), std::string::npos) << out;  // the shell says it could not
  EXPECT_GT(started, 0) << out;
  EXPECT_LT(started, 8) << out;            // the script itself counts too
  EXPECT_TRUE(cgroups->remove(JobId(5)));  // and its leftover sleeps go with the cgroup
}

TEST_F(JobCgroupsTest, AGpuDeviceItWasNotGivenCannotBeOpened) {
  if (::access((options.root + "/devices/" + options.subtree).c_str(), F_OK) != 0) {
    GTEST_SKIP() << "no devices hierarchy";
  }
  // A fake GPU: a character device with an unused number (240 is for local use); with no
  // driver behind it, opening it fails with ENXIO, unless the cgroup refuses it (EPERM).
  const std::string fake = work / "fake-gpu0";
  if (::mknod(fake.c_str(), S_IFCHR | 0666, makedev(240, 0)) != 0) GTEST_SKIP() << "cannot mknod";
  const std::string probe = "cat " + fake + " 2>&1 | sed 's/.*: //'\n";
  ASSERT_TRUE(run(3, probe, CgroupLimits{{}, {0}, {}, std::nullopt, {}, std::nullopt}));
  EXPECT_EQ(output(3), "No such device or address\n");
  ASSERT_TRUE(run(4, probe, CgroupLimits{{}, {0}, {}, std::nullopt, {{240, 0}}, std::nullopt}));
  EXPECT_EQ(output(4), "Operation not permitted\n");
}

// cgroup v2's device control is an eBPF program; this machine's unified mount has no
// controllers but takes device programs all the same (they need none).
TEST(CgroupV2Devices, TheDenyProgramRefusesExactlyTheListedDevices) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root";
  std::string mount;
  for (const char* m : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"}) {
    struct statfs st {};
    if (::statfs(m, &st) == 0 && static_cast<long>(st.f_type) == CGROUP2_SUPER_MAGIC) mount = m;
  }
  if (mount.empty()) GTEST_SKIP() << "no cgroup2 mount";
  auto prog = load_device_deny_program({{240, 0}, {240, 2}});
  if (!prog) GTEST_SKIP() << prog.error().message;
  const std::string dir = mount + "/fairway-bpf-test-" + std::to_string(::getpid());
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0) << std::strerror(errno);
  TempDir work;
  for (unsigned minor : {0u, 1u, 2u}) {
    ASSERT_EQ(::mknod((work / ("d" + std::to_string(minor))).c_str(), S_IFCHR | 0666, makedev(240, minor)),
              0);
  }
  auto attached = attach_device_program(dir, *prog);
  ::close(*prog);
  ASSERT_TRUE(attached) << attached.error().message;
  // A child joins the cgroup and tries each device: errno per minor number through a pipe.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    const std::string me = std::to_string(::getpid());
    const int procs = ::open((dir + "/cgroup.procs").c_str(), O_WRONLY);
    if (procs < 0 || ::write(procs, me.data(), me.size()) < 0) ::_exit(2);
    int errs[3];
    for (int m = 0; m < 3; ++m) {
      const int fd = ::open((work / ("d" + std::to_string(m))).c_str(), O_RDONLY);
      errs[m] = fd < 0 ? errno : 0;
    }
    (void)!::write(fds[1], errs, sizeof errs);
    ::_exit(0);
  }
  ::close(fds[1]);
  int errs[3] = {-1, -1, -1};
  ASSERT_EQ(::read(fds[0], errs, sizeof errs), static_cast<ssize_t>(sizeof errs));
  ::close(fds[0]);
  ASSERT_TRUE(testing::wait_for_exit(child));
  ::rmdir(dir.c_str());
  EXPECT_EQ(errs[0], EPERM);
  EXPECT_EQ(errs[1], ENXIO);  // allowed through, no driver
  EXPECT_EQ(errs[2], EPERM);
}

}  // namespace
}  // namespace fairway::agent
