// Issue 33 item 9: a job runs with its submitter's effective gid, which must be one of the
// user's groups. The attack: nobody, with root's group as its egid (as a setgid-root
// program's process has), submits a job; it must not run with gid 0.
#include <grp.h>

#include "tests/integration/cluster_fixture.h"

namespace fairway::integration {
namespace {

class JobGroup : public Cluster {
 protected:
  // Runs the CLI as nobody with `egid` as its gid and no supplementary groups.
  int run_cli_with_gid(gid_t egid, const std::vector<std::string>& args, std::string& output) {
    const std::string out_path = dir_ + "/cli-gid.out";
    const pid_t pid = fork();
    if (pid == 0) {
      const int fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const passwd* pw = getpwnam("nobody");
      if (fd < 0 || pw == nullptr) _exit(92);
      dup2(fd, 1);
      dup2(fd, 2);
      if (setgroups(0, nullptr) != 0 || setgid(egid) != 0 || setuid(pw->pw_uid) != 0) _exit(90);
      std::vector<std::string> argv = {"fairway", "--coordinator", clients_ep_};
      argv.insert(argv.end(), args.begin(), args.end());
      std::vector<char*> raw;
      for (auto& a : argv) raw.push_back(a.data());
      raw.push_back(nullptr);
      execv(FAIRWAY_CLI_BINARY, raw.data());
      _exit(91);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    output = read_file(out_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
};

TEST_F(JobGroup, AnEgidThatIsNotTheUsersGroupIsRefused) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  const std::string gid_file = dir_ + "/gid";
  std::string out;
  const int rc =
      run_cli_with_gid(0, {"submit", "--parsable", "-D", dir_, "--wrap", "id -g > " + gid_file}, out);
  if (rc == 0) {
    auto v = wait_state(JobId(std::stoull(out)), [](JobState s) { return is_terminal(s); });
    FAIL() << "the job was accepted and ran with gid " << read_file(gid_file);
  }
  EXPECT_NE(out.find("gid 0 is not a group of user 'nobody'"), std::string::npos) << out;
  // nobody's own group is fine.
  const passwd* pw = getpwnam("nobody");
  ASSERT_NE(pw, nullptr);
  ASSERT_EQ(run_cli_with_gid(pw->pw_gid,
                             {"submit", "--parsable", "-D", dir_, "--wrap", "id -g > " + gid_file}, out),
            0)
      << out;
  auto v = wait_state(JobId(std::stoull(out)), [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCompleted) << v->state_reason;
  EXPECT_EQ(read_file(gid_file), std::to_string(pw->pw_gid) + "\n");
}

}  // namespace
}  // namespace fairway::integration
