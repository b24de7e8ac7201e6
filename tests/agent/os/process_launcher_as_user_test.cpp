// Issue 33 item 9: a job's PATH search is made as the job's user (root's search told a user
// whether a file exists where they cannot look), and a job's gid must be one of its user's
// groups (it was taken from the caller's egid unchecked). Runs as root, jobs as nobody.
#include "agent/os/process_launcher.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>

#include "tests/agent/os/os_test_support.h"

namespace fairway::agent {
namespace {

using testing::TempDir;

class LaunchAsUser : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to run jobs as nobody";
    const passwd* pw = ::getpwnam("nobody");
    ASSERT_NE(pw, nullptr);
    nobody_gid_ = pw->pw_gid;
    // Root's own directory, closed to everyone else, holding an executable.
    ::chmod(hidden_.path().c_str(), 0700);
    for (const char* name : {"probe-tool", "true"}) {
      const std::string path = hidden_ / name;
      testing::write_text(path, "#!/bin/sh\necho ran " + std::string(name) + "\n");
      ::chmod(path.c_str(), 0755);
    }
  }
  LaunchRequest argv_job(std::uint64_t job, std::vector<std::string> argv, const std::string& path) const {
    LaunchRequest r;
    r.job = JobId(job);
    r.user = "nobody";
    r.account = "physics";
    r.partition = "batch";
    r.name = "as-user";
    r.program.argv = std::move(argv);
    r.program.env = {{"PATH", path}};
    r.program.working_dir = work_.path();
    r.cores = {0};
    r.nodelist = "node01";
    return r;
  }
  ProcessLauncher launcher() const { return ProcessLauncher(LauncherConfig{spool_.path(), false}); }

  TempDir work_, spool_, hidden_;
  gid_t nobody_gid_ = 0;
};

TEST_F(LaunchAsUser, APathSearchTellsNothingOfWhatTheUserCannotSee) {
  // The attack: is there a probe-tool in root's closed directory? A different answer for a
  // name that is there and one that is not tells the user.
  auto there = launcher().launch(argv_job(1, {"probe-tool"}, hidden_.path()));
  auto absent = launcher().launch(argv_job(2, {"absent-tool"}, hidden_.path()));
  ASSERT_FALSE(there);
  ASSERT_FALSE(absent);
  std::string a = there.error().message, b = absent.error().message;
  a.replace(a.find("job 1"), 5, "job N");
  a.replace(a.find("probe-tool"), 10, "NAME");
  b.replace(b.find("job 2"), 5, "job N");
  b.replace(b.find("absent-tool"), 11, "NAME");
  EXPECT_EQ(a, b) << "the answers differ: the user learns what is in " << hidden_.path();
  EXPECT_EQ(there.error().code, absent.error().code);
  EXPECT_NE(b.find("command 'NAME' not found in PATH '" + hidden_.path() + "' as user 'nobody'"),
            std::string::npos)
      << b;
  EXPECT_EQ(a.find(hidden_ / "probe-tool"), std::string::npos) << a;
  EXPECT_TRUE(testing::children_of_this_process().empty());
}

TEST_F(LaunchAsUser, TheSearchGoesOnPastWhatTheUserCannotRun) {
  // root sees hidden/true first; the user cannot run it, so /bin/true is theirs (execvp's rule).
  auto launched = launcher().launch(argv_job(3, {"true"}, hidden_.path() + ":/usr/bin:/bin"));
  ASSERT_TRUE(launched) << launched.error().message;
  EXPECT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::exited(0));
  EXPECT_EQ(testing::read_text(work_ / "fairway-3.out"), "");
}

TEST_F(LaunchAsUser, AGidThatIsNotOneOfTheUsersGroupsIsRefused) {
  // The attack: a caller whose egid is root's group (a setgid program's) submits; the job
  // would run with gid 0.
  LaunchRequest r = argv_job(4, {"id", "-g"}, "/usr/bin:/bin");
  r.gid = 0;
  auto launched = launcher().launch(r);
  if (launched) {
    testing::wait_for_exit(launched->pid);
    FAIL() << "the job ran with gid " << testing::read_text(work_ / "fairway-4.out");
  }
  EXPECT_EQ(launched.error().code, ErrorCode::kPermissionDenied);
  EXPECT_NE(launched.error().message.find("gid 0 is not a group of user 'nobody'"), std::string::npos)
      << launched.error().message;
  EXPECT_TRUE(testing::children_of_this_process().empty());
}

TEST_F(LaunchAsUser, TheUsersOwnGroupIsKept) {
  LaunchRequest r = argv_job(5, {"id", "-g"}, "/usr/bin:/bin");
  r.gid = nobody_gid_;
  auto launched = launcher().launch(r);
  ASSERT_TRUE(launched) << launched.error().message;
  EXPECT_EQ(testing::wait_for_exit(launched->pid), ProcessExit::exited(0));
  EXPECT_EQ(testing::read_text(work_ / "fairway-5.out"), std::to_string(nobody_gid_) + "\n");
}

}  // namespace
}  // namespace fairway::agent
