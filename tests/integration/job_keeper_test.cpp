// The job's keeper (issue 9): a job that ends while its agent is dead is reported with
// its real exit code once an agent is back, and a job whose agent was killed -9 is
// stopped by its keeper when the lease runs out, before the coordinator starts it again.
#include <sstream>

#include "tests/integration/cluster_fixture.h"

namespace fairway::integration {
namespace {

class JobKeeper : public Cluster {
 protected:
  void SetUp() override {
    Cluster::SetUp();
    std::string cfg = read_file(dir_ + "/fairway.toml");
    cfg.replace(cfg.find("kill_grace = 1\n"), 15, "kill_grace = 1\ncoordinator_lease = 3\n");
    std::ofstream(dir_ + "/fairway.toml") << cfg;
    start_coordinator();
    start_agent("kb01", kebnekaise_xml());
    ASSERT_TRUE(wait_nodes_up(1));
  }
  void kill_agent() {
    ASSERT_FALSE(agents_.empty());
    agents_.back().stop(SIGKILL);
    agents_.pop_back();
  }
};

TEST_F(JobKeeper, AJobThatEndsWhileItsAgentIsDeadKeepsItsExitCode) {
  const std::string started = dir_ + "/started";
  auto ok = submit(wrap("touch " + started + "; sleep 1.5; exit 0"));
  auto bad = submit(wrap("sleep 1.5; exit 5"));
  ASSERT_TRUE(ok && bad);
  ASSERT_TRUE(wait_state(*ok, [](JobState s) { return s == JobState::kRunning; }));
  ASSERT_TRUE(wait_state(*bad, [](JobState s) { return s == JobState::kRunning; }));
  ASSERT_TRUE(eventually([&] { return std::filesystem::exists(started); }));
  kill_agent();
  // Both end with no agent to reap them: their keepers write their exit records.
  ASSERT_TRUE(eventually([&] {
    return std::filesystem::exists(dir_ + "/spool-kb01/job-" + std::to_string(ok->value()) + ".exit") &&
           std::filesystem::exists(dir_ + "/spool-kb01/job-" + std::to_string(bad->value()) + ".exit");
  }));
  start_agent("kb01", kebnekaise_xml());
  auto v = wait_state(*ok, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCompleted) << v->state_reason;
  ASSERT_TRUE(v->exit_code);
  EXPECT_EQ(*v->exit_code, 0);
  EXPECT_EQ(v->requeue_count, 0) << "a completed job was run again";
  auto b = wait_state(*bad, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(b);
  EXPECT_EQ(b->state, JobState::kFailed);
  ASSERT_TRUE(b->exit_code);
  EXPECT_EQ(*b->exit_code, 5);
}

TEST_F(JobKeeper, AJobWhoseAgentWasKilledStopsWhenTheLeaseRunsOut) {
  const std::string pid_file = dir_ + "/job.pid";
  auto id = submit(wrap("echo $$ > " + pid_file + "; exec sleep 300"));
  ASSERT_TRUE(id);
  ASSERT_TRUE(eventually([&] { return !read_file(pid_file).empty(); }));
  const pid_t job_pid = static_cast<pid_t>(std::stol(read_file(pid_file)));
  ASSERT_EQ(kill(job_pid, 0), 0);
  kill_agent();
  // Lease 3 s, then the keeper's margin and the kill grace (1 s): well within 10 s.
  EXPECT_TRUE(eventually([&] { return kill(job_pid, 0) != 0; }, 10000ms)) << "the job outlived its lease";
  // The agent comes back: the fenced job was the node's failure, not the job's. It is
  // requeued (and runs again), never FAILED.
  start_agent("kb01", kebnekaise_xml());
  std::optional<wire::JobView> v;
  eventually(
      [&] {
        v = job(*id);
        return v && (v->requeue_count >= 1 || is_terminal(v->state));
      },
      20000ms);
  ASSERT_TRUE(v);
  EXPECT_FALSE(is_terminal(v->state)) << to_string(v->state) << ": " << v->state_reason;
  EXPECT_GE(v->requeue_count, 1);
}

}  // namespace
}  // namespace fairway::integration
