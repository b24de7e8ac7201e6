// Starts a real coordinator and agents as child processes in a temporary directory, on
// ipc:// sockets, and talks to them as the CLI does; everything is stopped and removed
// at the end of each test.
#pragma once

#include <gtest/gtest.h>

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "shared/net/curve_keys.h"
#include "shared/net/request_client.h"
#include "shared/wire/messages.h"

namespace fairway::integration {

using namespace std::chrono_literals;

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A daemon child process; killed (SIGKILL) when destroyed if still running.
class Daemon {
 public:
  Daemon() = default;
  Daemon(std::vector<std::string> argv, const std::string& log) {
    pid_ = fork();
    if (pid_ == 0) {
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
      }
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
  }
  Daemon(Daemon&& o) noexcept : pid_(std::exchange(o.pid_, -1)) {}
  Daemon& operator=(Daemon&& o) noexcept {
    stop(SIGKILL);
    pid_ = std::exchange(o.pid_, -1);
    return *this;
  }
  ~Daemon() { stop(SIGKILL); }
  // Sends `sig` and waits for the process to exit.
  void stop(int sig) {
    if (pid_ <= 0) return;
    kill(pid_, sig);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

class Cluster : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "fw-cluster-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
    std::filesystem::permissions(dir_, std::filesystem::perms::all);
    agents_ep_ = "ipc://" + dir_ + "/agents.sock";
    clients_ep_ = "ipc://" + dir_ + "/clients.sock";
    // Agents and coordinator authenticate with CURVE keys, as in production.
    std::filesystem::create_directories(dir_ + "/keys/agents");
    make_keys("coordinator");
    write_config("");
  }
  void TearDown() override {
    agents_.clear();
    coordinator_.stop(SIGKILL);
    if (HasFailure()) {
      for (const auto& e : std::filesystem::directory_iterator(dir_)) {
        if (e.path().extension() == ".log") {
          std::cerr << "---- " << e.path() << "\n" << read_file(e.path().string());
        }
      }
    }
    // A job's keeper outlives its killed agent for a moment and may still write its exit
    // record into the spool while the tree is removed: try again until it is gone.
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
      if (!ec) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    remove_cgroups();
  }

  // Host-discovered agents put their jobs' cgroups here: one subtree per test cluster, so
  // clusters of parallel tests never touch each other's jobs.
  std::string cgroup_subtree() const {
    return "fairway-it/" + std::filesystem::path(dir_).filename().string();
  }
  // cgroupfs directories go with rmdir, deepest first (their files cannot be unlinked).
  void remove_cgroups() const {
    for (const char* ctrl : {"cpuset", "memory", "devices", "cpuacct", "pids", "freezer", "unified"}) {
      const std::filesystem::path top = std::filesystem::path("/sys/fs/cgroup") / ctrl / cgroup_subtree();
      std::error_code ec;
      std::vector<std::filesystem::path> dirs;
      for (auto it = std::filesystem::recursive_directory_iterator(top, ec);
           !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_directory()) dirs.push_back(it->path());
      }
      for (auto d = dirs.rbegin(); d != dirs.rend(); ++d) ::rmdir(d->c_str());
      ::rmdir(top.c_str());
    }
  }

  // Extra TOML appended to the test config ([agent] allow_root_jobs is always on: CI runs
  // as root); `security`: extra keys of the [security] table, which holds the CURVE keys.
  void write_config(const std::string& extra, const std::string& security = "") {
    std::ofstream(dir_ + "/fairway.toml")
        << "[coordinator]\nheartbeat_timeout = 5\npass_interval = 1\nsubmit_burst = 100000\n"
        << coordinator_extra_ << "[agent]\nallow_root_jobs = true\nheartbeat_interval = 1\nkill_grace = 1\n"
        << "cgroup_subtree = \"" << cgroup_subtree() << "\"\n"
        << "[security]\ncoordinator_secret_key = \"" << dir_ << "/keys/coordinator.key\"\n"
        << "coordinator_public_key = \"" << dir_ << "/keys/coordinator.pub\"\n"
        << "agent_keys_dir = \"" << dir_ << "/keys/agents\"\n"
        << security << extra;
  }

  // DIR/keys/NAME.key and .pub; a node's public key is also listed in keys/agents.
  void make_keys(const std::string& name) {
    if (std::filesystem::exists(dir_ + "/keys/" + name + ".key")) return;
    auto keys = net::generate_curve_keypair();
    ASSERT_TRUE(keys) << keys.error().message;
    ASSERT_TRUE(net::write_curve_keypair(dir_ + "/keys", name, *keys));
    if (name != "coordinator") {
      std::ofstream(dir_ + "/keys/agents/" + name + ".pub") << keys->public_z85 << "\n";
    }
  }

  void start_coordinator() {
    coordinator_ = Daemon({FAIRWAY_COORDINATOR_BINARY, "--config", dir_ + "/fairway.toml", "--listen-agents",
                           agents_ep_, "--listen-clients", clients_ep_, "--state-dir", dir_ + "/state"},
                          dir_ + "/coordinator.log");
  }

  // An agent modelling `topology` (empty: the host itself, with real binding).
  void start_agent(const std::string& name, const std::string& topology = {}, const std::string& key = {}) {
    make_keys(name);
    std::vector<std::string> argv = {FAIRWAY_AGENT_BINARY,
                                     "--coordinator",
                                     agents_ep_,
                                     "--name",
                                     name,
                                     "--spool",
                                     dir_ + "/spool-" + name,
                                     "--config",
                                     dir_ + "/fairway.toml",
                                     "--key",
                                     key.empty() ? dir_ + "/keys/" + name + ".key" : key};
    if (!topology.empty()) {
      argv.push_back("--topology");
      argv.push_back(topology);
    }
    agents_.emplace_back(argv, dir_ + "/agent-" + name + ".log");
  }

  static std::string kebnekaise_xml() {
    return std::string(FAIRWAY_SOURCE_DIR) + "/tests/fixtures/topologies/kebnekaise-v100.xml";
  }

  // Runs the fairway CLI as `user` (the test must be root), with extra environment
  // entries ("NAME=value") and stdin from `stdin_path` (empty: /dev/null); returns its
  // exit status, its stdout and stderr in `output`.
  int run_cli_as(const std::string& user, const std::vector<std::string>& args, std::string& output,
                 const std::vector<std::string>& env = {}, const std::string& stdin_path = {}) {
    const std::string out_path = dir_ + "/cli-" + std::to_string(++cli_runs_) + ".out";
    const pid_t pid = start_cli_as(user, args, out_path, env, stdin_path);
    int status = 0;
    waitpid(pid, &status, 0);
    output = read_file(out_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  // Starts the CLI as run_cli_as does, writing to `out_path`; the caller reaps the pid.
  pid_t start_cli_as(const std::string& user, const std::vector<std::string>& args,
                     const std::string& out_path, const std::vector<std::string>& env = {},
                     const std::string& stdin_path = {}) {
    std::vector<std::string> argv = {"fairway", "--coordinator", clients_ep_};
    argv.insert(argv.end(), args.begin(), args.end());
    return start_as({user, FAIRWAY_CLI_BINARY, argv, env, false, {}}, out_path, stdin_path);
  }

  // A program run as another user (the test must be root).
  struct RunAs {
    std::string user;
    std::string program;            // its path
    std::vector<std::string> argv;  // argv[0] included
    std::vector<std::string> env;   // NAME=value, added to the test's (or alone: clear_env)
    bool clear_env = false;
    std::string cwd;  // empty: the test's
  };
  // In a just-forked child whose stdin/stdout/stderr are set: becomes the user, takes the
  // environment and directory, execs. Never returns (exit 90/91: setuid/exec failed).
  [[noreturn]] static void exec_as(const RunAs& r) {
    const passwd* pw = getpwnam(r.user.c_str());
    if (pw == nullptr || initgroups(pw->pw_name, pw->pw_gid) != 0 || setgid(pw->pw_gid) != 0 ||
        setuid(pw->pw_uid) != 0 || (!r.cwd.empty() && chdir(r.cwd.c_str()) != 0)) {
      _exit(90);
    }
    if (r.clear_env) clearenv();
    for (const auto& e : r.env) putenv(const_cast<char*>(e.c_str()));
    std::vector<std::string> argv = r.argv;
    std::vector<char*> raw;
    for (auto& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    execv(r.program.c_str(), raw.data());
    _exit(91);
  }
  // Forks `r` with stdout and stderr to `out_path` and stdin from `stdin_path` (empty:
  // /dev/null); the caller reaps the pid.
  static pid_t start_as(const RunAs& r, const std::string& out_path, const std::string& stdin_path = {}) {
    const pid_t pid = fork();
    if (pid == 0) {
      const int fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0) _exit(92);
      const int in = ::open(stdin_path.empty() ? "/dev/null" : stdin_path.c_str(), O_RDONLY);
      if (in < 0) _exit(93);
      dup2(in, 0);
      dup2(fd, 1);
      dup2(fd, 2);
      exec_as(r);
    }
    return pid;
  }
  // start_as, waited for: its exit status (128+N for signal N), what it printed in `output`.
  int run_as(const RunAs& r, std::string& output) {
    const std::string out_path = dir_ + "/run-" + std::to_string(++cli_runs_) + ".out";
    const pid_t pid = start_as(r, out_path);
    int status = 0;
    waitpid(pid, &status, 0);
    output = read_file(out_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  static std::string current_user() {
    const passwd* pw = getpwuid(geteuid());
    return pw != nullptr ? pw->pw_name : "root";
  }

  Result<wire::Message> call(const wire::Message& m, std::chrono::milliseconds timeout = 3000ms) {
    auto client = net::RequestClient::connect(clients_ep_);
    if (!client) return std::unexpected(client.error());
    return client->call(m, timeout);
  }

  // Polls until `pred` holds or `limit` passes.
  static bool eventually(const std::function<bool()>& pred, std::chrono::milliseconds limit = 10000ms) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      if (pred()) return true;
      std::this_thread::sleep_for(50ms);
    }
    return pred();
  }

  std::vector<wire::NodeView> nodes() {
    auto r = call(wire::NodeQuery{});
    if (!r) return {};
    auto* reply = std::get_if<wire::NodeQueryReply>(&*r);
    return reply ? reply->nodes : std::vector<wire::NodeView>{};
  }

  // Scheduling passes the coordinator has run (fairway_passes_total); -1 when unanswered.
  double passes() {
    auto r = call(wire::MetricsQuery{});
    const auto* m = r ? std::get_if<wire::MetricsReply>(&*r) : nullptr;
    if (m == nullptr) return -1;
    for (const auto& f : m->families) {
      if (f.name == "fairway_passes_total" && !f.samples.empty()) return f.samples.front().value;
    }
    return -1;
  }
  // Waits for `more` passes after now: what a test that asserts that something did not
  // happen waits for, instead of a fixed sleep (the passes that could have done it ran).
  bool wait_passes(int more) {
    const double from = passes();
    return from >= 0 && eventually([&] { return passes() >= from + more; });
  }

  bool wait_nodes_up(std::size_t n) {
    return eventually([&] {
      auto ns = nodes();
      return ns.size() == n &&
             std::all_of(ns.begin(), ns.end(), [](const auto& v) { return v.state != "down"; });
    });
  }

  wire::SubmitRequest wrap(const std::string& cmd, std::int32_t cores = 1,
                           Duration limit = Duration::minutes(5)) {
    wire::SubmitRequest r;
    r.client_token = "t" + std::to_string(++token_);
    r.spec.user = current_user();
    r.spec.name = "it";
    r.spec.resources.cores = cores;
    r.spec.time_limit = limit;
    r.program.argv = {"/bin/sh", "-c", cmd};
    r.program.working_dir = dir_;
    r.program.env = {{"PATH", "/usr/bin:/bin"}};
    return r;
  }

  std::optional<JobId> submit(const wire::SubmitRequest& r) {
    auto reply = call(r);
    if (!reply) {
      ADD_FAILURE() << reply.error().message;
      return std::nullopt;
    }
    if (auto* e = std::get_if<wire::ErrorReply>(&*reply)) {
      ADD_FAILURE() << e->message;
      return std::nullopt;
    }
    return std::get<wire::SubmitReply>(*reply).job;
  }

  std::optional<wire::JobView> job(JobId id) {
    wire::JobQuery q;
    q.jobs = {id};
    auto r = call(q);
    if (!r) return std::nullopt;
    auto* reply = std::get_if<wire::JobQueryReply>(&*r);
    if (reply == nullptr || reply->jobs.empty()) return std::nullopt;
    return reply->jobs.front();
  }

  std::optional<wire::JobView> wait_state(JobId id, const std::function<bool(JobState)>& pred,
                                          std::chrono::milliseconds limit = 15000ms) {
    std::optional<wire::JobView> v;
    eventually(
        [&] {
          v = job(id);
          return v && pred(v->state);
        },
        limit);
    return v;
  }

  std::string dir_;
  std::string coordinator_extra_;  // more [coordinator] keys, for write_config
  std::string agents_ep_, clients_ep_;
  Daemon coordinator_;
  std::vector<Daemon> agents_;
  int token_ = 0;
  int cli_runs_ = 0;
};

}  // namespace fairway::integration
