// What one user's text can do to another's terminal, and what private_data hides (issue 33
// items 7 and 9), on the real coordinator and CLI: a job name with a newline shows on one
// line in fairway's and Slurm's views, exact in JSON; under private_data nobody sees
// root's job on a node, nor per-account usage in diag.
#include <nlohmann/json.hpp>

#include <sstream>

#include "tests/integration/cluster_fixture.h"

namespace fairway::integration {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The lines of `text` that start with `prefix`.
int lines_starting(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) n += line.starts_with(prefix) ? 1 : 0;
  return n;
}

class PrivateViews : public Cluster {
 protected:
  void SetUp() override {
    Cluster::SetUp();
    if (geteuid() != 0) GTEST_SKIP() << "needs root to act as other users";
  }
  // A Slurm command (squeue, scontrol...) through its link, as `user`.
  int slurm_as(const std::string& user, const std::string& command, const std::vector<std::string>& args,
               std::string& out) {
    const std::string bin = std::string(FAIRWAY_SLURM_BIN_DIR);
    std::vector<std::string> argv = {command};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_as({user,
                   bin + "/" + command,
                   argv,
                   {"FAIRWAY_COORDINATOR=" + clients_ep_, "PATH=" + bin + ":/usr/bin:/bin", "USER=" + user},
                   true,
                   dir_},
                  out);
  }
};

TEST_F(PrivateViews, ANewlineInAnotherUsersJobNameCannotForgeALine) {
  write_config("");
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  const std::string forged = "x\nroot 999 normal R \x1b[2J";
  std::string out;
  ASSERT_EQ(run_cli_as("nobody",
                       {"submit", "-D", "/tmp", "--parsable", "--hold", "-J", forged, "--wrap", "true"}, out),
            0)
      << out;
  const std::string id = out.substr(0, out.find_first_of("\n;"));
  // Root (an admin) reads the queue: one line for the job, the name's controls escaped.
  for (const std::vector<std::string>& view : {std::vector<std::string>{"queue"}, {"show", "job", id}}) {
    ASSERT_EQ(run_cli_as("root", view, out), 0) << out;
    EXPECT_EQ(lines_starting(out, "root"), 0) << view[0] << " printed a forged line:\n" << out;
    EXPECT_FALSE(contains(out, "\x1b")) << out;
    EXPECT_TRUE(contains(out, "\\x1b[2J") || view[0] == "queue") << out;
  }
  ASSERT_EQ(run_cli_as("root", {"show", "job", id}, out), 0) << out;
  EXPECT_TRUE(contains(out, "x\\nroot 999 normal R \\x1b[2J")) << out;
  for (const auto& [command, args] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"squeue", {"-o", "%i %j %u"}},
           {"scontrol", {"show", "job", id}},
           {"sacct", {"-j", id, "-o", "JobName%60"}}}) {
    ASSERT_EQ(slurm_as("root", command, args, out), 0) << command << ": " << out;
    EXPECT_EQ(lines_starting(out, "root"), 0) << command << " printed a forged line:\n" << out;
    EXPECT_TRUE(contains(out, "x\\nroot 999")) << command << ": " << out;
    EXPECT_FALSE(contains(out, "\x1b")) << out;
  }
  // JSON stays exact: a program reading it gets the name as submitted.
  ASSERT_EQ(run_cli_as("root", {"queue", "--json"}, out), 0) << out;
  const auto j = nlohmann::json::parse(out);
  ASSERT_EQ(j.at("jobs").size(), 1u) << out;
  EXPECT_EQ(j.at("jobs").at(0).at("name").get<std::string>(), forged);
}

TEST_F(PrivateViews, PrivateDataHidesOthersJobsOnNodesAndPerAccountUsage) {
  write_config("", "private_data = true\n");
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  auto id = submit(wrap("sleep 60"));
  ASSERT_TRUE(id);
  ASSERT_TRUE(wait_state(*id, [](JobState s) { return s == JobState::kRunning; }));
  std::string out;
  const auto jobs_on_node = [&](const std::string& json) {
    const auto j = nlohmann::json::parse(json);
    EXPECT_EQ(j.at("nodes").size(), 1u) << json;
    return j.at("nodes").at(0).at("jobs");
  };
  ASSERT_EQ(run_cli_as("nobody", {"nodes", "--json"}, out), 0) << out;
  EXPECT_TRUE(jobs_on_node(out).empty()) << "nobody sees root's job on the node:\n" << out;
  ASSERT_EQ(run_cli_as("nobody", {"show", "node", "kb01"}, out), 0) << out;
  EXPECT_TRUE(contains(out, "Jobs: (none)")) << out;
  ASSERT_EQ(run_cli_as("root", {"nodes", "--json"}, out), 0) << out;
  EXPECT_EQ(jobs_on_node(out), nlohmann::json::array({id->value()})) << out;
  ASSERT_EQ(run_cli_as("nobody", {"diag", "--json"}, out), 0) << out;
  EXPECT_FALSE(contains(out, "fairway_account_usage")) << out;
  EXPECT_TRUE(contains(out, "fairway_jobs")) << "the rest of diag is still there:\n" << out;
  ASSERT_EQ(run_cli_as("root", {"diag", "--json"}, out), 0) << out;
  EXPECT_TRUE(contains(out, "fairway_account_usage")) << out;
}

}  // namespace
}  // namespace fairway::integration
