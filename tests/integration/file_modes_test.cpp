// Issue 33 item 1: what the coordinator and agent write (state dir, job store and its WAL,
// spool, checkpoints, exit records, lease) is private to their user, so that another local
// user cannot read a job's script and environment; a coordinator refuses to start on a
// state dir or store that others can read; the client socket stays reachable by users and
// a job's own output gets the user's modes.
#include <sys/stat.h>

#include "tests/integration/cluster_fixture.h"

namespace fairway::integration {
namespace {

constexpr const char* kSecret = "tok-3b1f9e2a7c-secret";

unsigned mode_of(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 ? st.st_mode & 07777U : 07777U;
}

std::string octal(unsigned mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", mode);
  return text;
}

class FileModes : public Cluster {
 protected:
  // Every path under `top` (itself included) with its mode.
  static std::vector<std::pair<std::string, unsigned>> walk(const std::string& top) {
    std::vector<std::pair<std::string, unsigned>> out{{top, mode_of(top)}};
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(top, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      out.emplace_back(it->path().string(), mode_of(it->path().string()));
    }
    return out;
  }
  // Starts the coordinator and waits for it to exit; its exit status.
  int coordinator_exit_status() {
    start_coordinator();
    int status = 0;
    const pid_t pid = coordinator_.pid();
    const bool ended = eventually([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, 10000ms);
    if (!ended) return -1;
    coordinator_ = Daemon();  // reaped already
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
};

TEST_F(FileModes, NoOtherUserCanReadAJobsScriptOrEnvironment) {
  // The daemons start with the test's umask (022 here): they must set their own.
  const mode_t test_umask = ::umask(022);
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  const std::string out_path = dir_ + "/job.out";
  wire::SubmitRequest r = wrap("");
  r.program.argv.clear();
  r.program.script =
      std::string("#!/bin/sh\n# uses ") + kSecret + "\necho started; sleep 2; touch " + dir_ + "/job.made\n";
  r.program.env.push_back({"API_TOKEN", kSecret});
  r.program.stdout_path = out_path;
  auto id = submit(r);
  ASSERT_TRUE(id);
  ASSERT_TRUE(wait_state(*id, [](JobState s) { return s == JobState::kRunning; }));
  // The agent dies while the job runs: its script, checkpoint and lease stay in the spool,
  // and the keeper writes the job's exit record there when it ends.
  agents_.back().stop(SIGKILL);
  agents_.pop_back();
  const std::string spool = dir_ + "/spool-kb01";
  const std::string exit_record = spool + "/job-" + std::to_string(id->value()) + ".exit";
  // The script sleeps 2 s; on a loaded 2-core CI machine its keeper has taken over 10 s to
  // write the record (seen twice in full runs), so the wait is generous.
  ASSERT_TRUE(eventually([&] { return std::filesystem::exists(exit_record); }, std::chrono::seconds(40)))
      << "no exit record";
  ::umask(test_umask);

  const std::string state = dir_ + "/state";
  std::vector<std::pair<std::string, unsigned>> files = walk(state);
  const auto spool_files = walk(spool);
  files.insert(files.end(), spool_files.begin(), spool_files.end());
  std::string listing;
  for (const auto& [path, mode] : files) listing += octal(mode) + " " + path + "\n";
  std::cout << listing;
  for (const std::string& must :
       {state + "/fairway.db", state + "/fairway.db-wal", state + "/fairway.db-shm", exit_record,
        spool + "/coordinator-lease", spool + "/fairway-job-" + std::to_string(id->value()) + ".sh"}) {
    EXPECT_TRUE(std::filesystem::exists(must)) << must << " was not made: the walk misses it\n" << listing;
  }
  for (const auto& [path, mode] : files) {
    if (path == spool) {
      EXPECT_EQ(mode, 0711U) << path << ": users reach their scripts by name, list nothing";
    } else {
      EXPECT_EQ(mode & 077U, 0U) << path << " is " << octal(mode) << ": open to group or others";
    }
  }
  EXPECT_EQ(mode_of(state), 0700U);

  // The attack: another local user searches everything the daemons wrote for the token
  // (as bob did with grep -a on the WAL).
  std::string found;
  run_as({"nobody", "/bin/grep", {"grep", "-r", "-a", "-l", kSecret, state, spool}, {}, false, {}}, found);
  std::istringstream lines(found);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_NE(line.find("Permission denied"), std::string::npos) << "nobody found the job's token: " << line;
  }

  // What must stay open: users still reach the client socket, and the job's own files
  // have the user's modes (022 unless SLURM_UMASK says otherwise), not the daemons' 077.
  std::string q;
  EXPECT_EQ(run_cli_as("nobody", {"queue"}, q), 0) << q;
  EXPECT_TRUE(eventually([&] { return std::filesystem::exists(dir_ + "/job.made"); }));
  EXPECT_EQ(mode_of(out_path), 0644U);
  EXPECT_EQ(mode_of(dir_ + "/job.made"), 0644U);
}

TEST_F(FileModes, AJobsFilesFollowTheSubmittersUmask) {
  start_coordinator();
  start_agent("kb01", kebnekaise_xml());
  ASSERT_TRUE(wait_nodes_up(1));
  // The job applies SLURM_UMASK and, as under Slurm, does not see it in its environment.
  wire::SubmitRequest r = wrap("touch " + dir_ + "/made; echo \"umask=${SLURM_UMASK-unset}\"");
  r.program.env.push_back({"SLURM_UMASK", "0027"});
  r.program.stdout_path = dir_ + "/out";
  auto id = submit(r);
  ASSERT_TRUE(id);
  auto v = wait_state(*id, [](JobState s) { return is_terminal(s); });
  ASSERT_TRUE(v);
  EXPECT_EQ(v->state, JobState::kCompleted) << v->state_reason;
  EXPECT_EQ(mode_of(dir_ + "/out"), 0640U);
  EXPECT_EQ(mode_of(dir_ + "/made"), 0640U);
  EXPECT_EQ(read_file(dir_ + "/out"), "umask=unset\n");
}

TEST_F(FileModes, ACoordinatorRefusesAStateDirOthersCanRead) {
  const std::string state = dir_ + "/state";
  std::filesystem::create_directories(state);
  ::chmod(state.c_str(), 0755);
  EXPECT_EQ(coordinator_exit_status(), 1);
  const std::string log = read_file(dir_ + "/coordinator.log");
  EXPECT_NE(log.find("state directory '" + state + "' is mode 0755"), std::string::npos) << log;
  EXPECT_NE(log.find("chmod 0700"), std::string::npos) << log;
  EXPECT_FALSE(std::filesystem::exists(state + "/fairway.db")) << "the store was opened all the same";
}

TEST_F(FileModes, ACoordinatorRefusesAStoreOthersCanRead) {
  const std::string state = dir_ + "/state";
  // A store as an older version left it: made, then opened to others.
  start_coordinator();
  ASSERT_TRUE(eventually([&] { return call(wire::NodeQuery{}).has_value(); }));
  coordinator_.stop(SIGTERM);
  for (const std::string file : {"fairway.db", "fairway.db-wal"}) {
    if (std::filesystem::exists(state + "/" + file)) ::chmod((state + "/" + file).c_str(), 0644);
  }
  EXPECT_EQ(coordinator_exit_status(), 1);
  const std::string log = read_file(dir_ + "/coordinator.log");
  EXPECT_NE(log.find("job store file '" + state + "/fairway.db' is mode 0644"), std::string::npos) << log;
  // Made private again, it starts.
  for (const std::string file : {"fairway.db", "fairway.db-wal"}) ::chmod((state + "/" + file).c_str(), 0600);
  start_coordinator();
  EXPECT_TRUE(eventually([&] { return call(wire::NodeQuery{}).has_value(); }));
}

}  // namespace
}  // namespace fairway::integration
