// Issue 33 item 6: a job's setsid child (outside the job's process group) ends with the job
// when it is fenced (its agent killed, the lease out) and when it is cancelled: the keeper
// and the agent end the job's whole cgroup. Needs writable cgroups (host-discovered agent).
#include "tests/integration/cluster_fixture.h"

namespace fairway::integration {
namespace {

// Running: in /proc and not a zombie (whoever adopted it may be slow to reap it).
bool alive(pid_t pid) {
  const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  const auto paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
}

class EscapedProcess : public Cluster {
 protected:
  void SetUp() override {
    Cluster::SetUp();
    if (geteuid() != 0) GTEST_SKIP() << "cgroups need root";
    std::string cfg = read_file(dir_ + "/fairway.toml");
    cfg.replace(cfg.find("kill_grace = 1\n"), 15,
                "kill_grace = 1\ncoordinator_lease = 3\nrequire_enforcement = true\n");
    std::ofstream(dir_ + "/fairway.toml") << cfg;
    start_coordinator();
    start_agent("host1");
    if (!wait_nodes_up(1))
      GTEST_SKIP() << "no agent with cgroups here:\n" << read_file(dir_ + "/agent-host1.log");
  }
  // A job whose child leaves its process group (setsid), ignores TERM, and writes its pid.
  std::optional<JobId> submit_escaping(const std::string& pid_file) {
    return submit(
        wrap("setsid sh -c 'echo $$ > " + pid_file +
             "; trap \"\" TERM; while :; do sleep 1; done' </dev/null >/dev/null 2>&1 & exec sleep 300"));
  }
  pid_t read_pid(const std::string& pid_file) {
    pid_t pid = 0;
    eventually([&] {
      const std::string t = read_file(pid_file);
      if (!t.empty() && t.back() == '\n') pid = static_cast<pid_t>(std::stol(t));
      return pid > 0;
    });
    return pid;
  }
};

TEST_F(EscapedProcess, AFencedJobsSetsidChildEndsWithIt) {
  const std::string pid_file = dir_ + "/child.pid";
  auto id = submit_escaping(pid_file);
  ASSERT_TRUE(id);
  const pid_t child = read_pid(pid_file);
  ASSERT_GT(child, 0);
  agents_.back().stop(SIGKILL);
  agents_.pop_back();
  // Lease 3 s, the keeper's margin, the kill grace: well within 12 s. Before the coordinator
  // may start the job again elsewhere, nothing of it runs here.
  EXPECT_TRUE(eventually([&] { return !alive(child); }, 12000ms))
      << "the setsid child outlived its fenced job";
  kill(child, SIGKILL);
}

TEST_F(EscapedProcess, ACancelledJobsSetsidChildEndsWithIt) {
  const std::string pid_file = dir_ + "/child.pid";
  auto id = submit_escaping(pid_file);
  ASSERT_TRUE(id);
  const pid_t child = read_pid(pid_file);
  ASSERT_GT(child, 0);
  std::string out;
  ASSERT_EQ(run_cli_as(current_user(), {"cancel", std::to_string(id->value())}, out), 0) << out;
  ASSERT_TRUE(wait_state(*id, [](JobState s) { return is_terminal(s); }));
  EXPECT_TRUE(eventually([&] { return !alive(child); }, 5000ms))
      << "the setsid child outlived its cancelled job";
  kill(child, SIGKILL);
}

}  // namespace
}  // namespace fairway::integration
