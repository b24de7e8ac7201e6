// End-to-end throughput of a real cluster on loopback: a coordinator and four agents as
// processes, driven through the client protocol the CLI uses. Prints one line per figure.
//   fairway_cluster_bench [--jobs N] [--queued N] [--cli BINARY] [--state-on DIR]
//                         [--slurm-bin DIR] [--only preemption|slurm-commands]
// --slurm-bin: fairway-slurm's links (build/slurm/bin): sbatch against `fairway submit`,
// and squeue over 10,000 waiting jobs.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "shared/net/curve_keys.h"
#include "shared/net/request_client.h"
#include "shared/wire/messages.h"

namespace {

using namespace fairway;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

pid_t spawn(std::vector<std::string> argv, const std::string& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
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
  return pid;
}

void stop(pid_t pid) {
  if (pid <= 0) return;
  kill(pid, SIGTERM);
  waitpid(pid, nullptr, 0);
}

long rss_kib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// --state-on DIR puts the job store there (e.g. /dev/shm) to show what fsync costs.
std::string g_state_parent;
std::string state_dir(const std::string& dir) {
  if (g_state_parent.empty()) return dir + "/state";
  return g_state_parent + "/" + std::filesystem::path(dir).filename().string();
}

bool open_channel() {
  const char* v = std::getenv("FAIRWAY_BENCH_AGENT_AUTH");
  return v != nullptr && std::string(v) == "none";
}

struct Cluster {
  std::string dir, agents_ep, clients_ep;
  pid_t coordinator = -1;
  std::vector<pid_t> agents;

  Cluster(const std::string& extra_config, int agent_count) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "fw-bench-XXXXXX").string();
    dir = mkdtemp(tmpl.data());
    agents_ep = "ipc://" + dir + "/agents.sock";
    clients_ep = "ipc://" + dir + "/clients.sock";
    // Agents authenticate with CURVE keys, as in production: the figures include it.
    std::filesystem::create_directories(dir + "/keys/agents");
    auto write_keys = [&](const std::string& name) {
      auto keys = net::generate_curve_keypair();
      if (!keys || !net::write_curve_keypair(dir + "/keys", name, *keys)) {
        std::fprintf(stderr, "cannot make CURVE keys for %s\n", name.c_str());
        std::exit(1);
      }
      if (name != "coordinator")
        std::ofstream(dir + "/keys/agents/" + name + ".pub") << keys->public_z85 << "\n";
    };
    write_keys("coordinator");
    std::ofstream(dir + "/fairway.toml")
        << "[coordinator]\nsubmit_burst = 1000000000\nsubmit_refill_per_s = 1000000\n"
        << "[agent]\nallow_root_jobs = true\nkill_grace = 1\n"
        << "[security]\ncoordinator_secret_key = \"" << dir << "/keys/coordinator.key\"\n"
        << "coordinator_public_key = \"" << dir << "/keys/coordinator.pub\"\n"
        << "agent_keys_dir = \"" << dir
        << "/keys/agents\"\n"
        // FAIRWAY_BENCH_AGENT_AUTH=none measures the open channel, to price CURVE (A/B).
        << (open_channel() ? "agent_auth = \"none\"\n" : "") << extra_config;
    coordinator = spawn({FAIRWAY_COORDINATOR_BINARY, "--config", dir + "/fairway.toml", "--listen-agents",
                         agents_ep, "--listen-clients", clients_ep, "--state-dir", state_dir(dir)},
                        dir + "/coordinator.log");
    const std::string topo =
        std::string(FAIRWAY_SOURCE_DIR) + "/tests/fixtures/topologies/kebnekaise-v100.xml";
    for (int i = 0; i < agent_count; ++i) {
      const std::string name = "n" + std::to_string(i);
      write_keys(name);
      agents.push_back(spawn({FAIRWAY_AGENT_BINARY, "--coordinator", agents_ep, "--name", name, "--topology",
                              topo, "--spool", dir + "/spool-" + name, "--config", dir + "/fairway.toml",
                              "--key", dir + "/keys/" + name + ".key"},
                             dir + "/agent-" + name + ".log"));
    }
  }
  ~Cluster() {
    for (pid_t a : agents) stop(a);
    stop(coordinator);
    std::filesystem::remove_all(dir);
    if (!g_state_parent.empty()) std::filesystem::remove_all(state_dir(dir));
  }
};

wire::SubmitRequest trivial(const std::string& dir, int n, const char* cmd = "true") {
  wire::SubmitRequest r;
  r.client_token = "bench-" + std::to_string(n);
  r.spec.user = "root";
  r.spec.name = "bench";
  r.spec.time_limit = Duration::minutes(10);
  r.program.argv = {"/bin/sh", "-c", cmd};
  r.program.working_dir = dir;
  r.program.stdout_path = "/dev/null";
  r.program.env = {{"PATH", "/usr/bin:/bin"}, {"HOME", "/root"}, {"LANG", "C.UTF-8"}};
  return r;
}

std::vector<wire::JobView> query(net::RequestClient& c, wire::JobQuery q) {
  auto r = c.call(q, 30s);
  if (!r) return {};
  auto* reply = std::get_if<wire::JobQueryReply>(&*r);
  return reply ? reply->jobs : std::vector<wire::JobView>{};
}

bool wait_nodes(net::RequestClient& c, std::size_t n) {
  const auto end = Clock::now() + 20s;
  while (Clock::now() < end) {
    auto r = c.call(wire::NodeQuery{}, 5s);
    if (r) {
      if (auto* reply = std::get_if<wire::NodeQueryReply>(&*r)) {
        std::size_t up = 0;
        for (const auto& v : reply->nodes) up += v.state != "down";
        if (up == n) return true;
      }
    }
    std::this_thread::sleep_for(100ms);
  }
  return false;
}

void report(const char* name, double value, const char* unit) {
  std::printf("%-44s %12.1f %s\n", name, value, unit);
  std::fflush(stdout);
}

// Owner partitions: a 28-core owner job on a node a 28-core lower-tier job fills, with the
// partition's preempt_grace `grace_s`. The victim's shell exits on SIGTERM unless
// `ignores_term` (then it is killed at the grace's end). Reports the owner's submit to
// start, and the victim's return to running once the owner (`true`) is done.
bool bench_preemption(int grace_s, bool ignores_term, int rounds) {
  Cluster cluster(
      "[[partitions]]\nname = \"general\"\ndefault = true\npreempt = \"requeue\"\n"
      "preempt_grace = " +
          std::to_string(grace_s) +
          "\n"
          "[[partitions]]\nname = \"owner\"\npriority_tier = 1\n",
      1);
  auto client = net::RequestClient::connect(cluster.clients_ep);
  if (!client || !wait_nodes(*client, 1)) {
    std::fprintf(stderr, "cluster did not come up (logs in %s)\n", cluster.dir.c_str());
    return false;
  }
  auto job_view = [&](JobId id) {
    wire::JobQuery q;
    q.jobs = {id};
    auto v = query(*client, q);
    return v.empty() ? std::optional<wire::JobView>() : std::optional<wire::JobView>(v[0]);
  };
  auto wait_for = [&](JobId id, auto pred) {
    const auto end = Clock::now() + 120s;
    while (Clock::now() < end) {
      if (auto v = job_view(id); v && pred(*v)) return true;
      std::this_thread::sleep_for(1ms);
    }
    return false;
  };
  std::vector<double> to_start, victim_back;
  for (int i = 0; i < rounds; ++i) {
    auto victim =
        trivial(cluster.dir, 3000000 + i * 2, ignores_term ? "trap '' TERM; sleep 600" : "exec sleep 600");
    victim.spec.resources.cores = 28;
    auto r = client->call(victim, 5s);
    if (!r || !std::holds_alternative<wire::SubmitReply>(*r)) return false;
    const JobId vid = std::get<wire::SubmitReply>(*r).job;
    if (!wait_for(vid, [](const wire::JobView& v) { return v.state == JobState::kRunning; })) return false;
    std::this_thread::sleep_for(300ms);  // the victim's shell is up and has its trap set
    auto owner = trivial(cluster.dir, 3000001 + i * 2, "true");
    owner.spec.resources.cores = 28;
    owner.spec.partition = "owner";
    const auto t0 = Clock::now();
    r = client->call(owner, 5s);
    if (!r || !std::holds_alternative<wire::SubmitReply>(*r)) return false;
    const JobId oid = std::get<wire::SubmitReply>(*r).job;
    if (!wait_for(oid, [](const wire::JobView& v) { return v.start_time.has_value(); })) return false;
    to_start.push_back(seconds_since(t0) * 1000);
    if (!wait_for(oid, [](const wire::JobView& v) { return is_terminal(v.state); })) return false;
    const auto t1 = Clock::now();
    if (!wait_for(vid, [](const wire::JobView& v) { return v.state == JobState::kRunning; })) return false;
    victim_back.push_back(seconds_since(t1) * 1000);
    wire::JobControl cancel;
    cancel.action = wire::JobAction::kCancel;
    cancel.jobs = {vid};
    cancel.user = "root";
    (void)client->call(cancel, 5s);
    if (!wait_for(vid, [](const wire::JobView& v) { return is_terminal(v.state); })) return false;
  }
  std::sort(to_start.begin(), to_start.end());
  std::sort(victim_back.begin(), victim_back.end());
  const std::string what = "grace " + std::to_string(grace_s) + " s" + (ignores_term ? ", TERM ignored" : "");
  report(("owner submit-to-start, preempting (" + what + ", median)").c_str(), to_start[to_start.size() / 2],
         "ms");
  report(("victim requeued and running again after owner (" + what + ")").c_str(),
         victim_back[victim_back.size() / 2], "ms");
  return true;
}

}  // namespace

// Median wall time of `command` run `runs` times, in ms.
double median_ms(const std::string& command, int runs) {
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = Clock::now();
    if (std::system(command.c_str()) != 0) return -1;
    t.push_back(seconds_since(t0) * 1000);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Slurm's commands through fairway-slurm: sbatch and fairway submit interleaved (the same
// job, one process each), then squeue and fairway queue over 10,000 waiting jobs.
bool bench_slurm_commands(const std::string& cli, const std::string& slurm_bin) {
  Cluster cluster("", 1);
  auto client = net::RequestClient::connect(cluster.clients_ep);
  if (!client || !wait_nodes(*client, 1)) return false;
  const std::string env = "FAIRWAY_COORDINATOR=" + cluster.clients_ep + " ";
  double sbatch_s = 0, submit_s = 0;
  const int n = 50;
  for (int i = 0; i < n; ++i) {
    auto t0 = Clock::now();
    if (std::system(
            (env + slurm_bin + "/sbatch --hold --parsable -o /dev/null --wrap true >/dev/null").c_str()) != 0)
      return false;
    sbatch_s += seconds_since(t0);
    t0 = Clock::now();
    if (std::system((env + cli + " submit --hold --parsable -o /dev/null --wrap true >/dev/null").c_str()) !=
        0)
      return false;
    submit_s += seconds_since(t0);
  }
  report("sbatch --hold --wrap true (mean of 50, interleaved)", sbatch_s / n * 1000, "ms");
  report("fairway submit --hold --wrap true (mean of 50, interleaved)", submit_s / n * 1000, "ms");
  for (int k = 2 * n; k < 10000; k += 1000) {
    wire::SubmitBatch b;
    for (int i = 0; i < 1000 && k + i < 10000; ++i) {
      auto r = trivial(cluster.dir, 3000000 + k + i);
      r.spec.hold = true;
      b.requests.push_back(r);
    }
    if (!client->call(b, 60s)) return false;
  }
  report("squeue, 10,000 waiting jobs (median of 5)", median_ms(env + slurm_bin + "/squeue >/dev/null", 5),
         "ms");
  report("squeue -h -o %i, 10,000 waiting jobs (median of 5)",
         median_ms(env + slurm_bin + "/squeue -h -o %i >/dev/null", 5), "ms");
  report("fairway queue, 10,000 waiting jobs (median of 5)", median_ms(env + cli + " queue >/dev/null", 5),
         "ms");
  return true;
}

int main(int argc, char** argv) {
  int jobs = 5000, queued = 100000;
  std::string cli, only, slurm_bin;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--only") == 0) only = argv[i + 1];
    if (std::strcmp(argv[i], "--jobs") == 0) jobs = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--queued") == 0) queued = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--cli") == 0) cli = argv[i + 1];
    if (std::strcmp(argv[i], "--slurm-bin") == 0) slurm_bin = argv[i + 1];
    if (std::strcmp(argv[i], "--state-on") == 0) g_state_parent = argv[i + 1];
  }
  if (only == "preemption") {
    const bool ok =
        bench_preemption(0, false, 5) && bench_preemption(30, false, 3) && bench_preemption(30, true, 1);
    return ok ? 0 : 1;
  }
  if (!slurm_bin.empty() && (cli.empty() || !bench_slurm_commands(cli, slurm_bin))) {
    std::fprintf(stderr, "--slurm-bin needs --cli, and both to work\n");
    return 1;
  }
  if (only == "slurm-commands") return 0;
  {
    Cluster cluster("", 4);
    auto client = net::RequestClient::connect(cluster.clients_ep);
    if (!client || !wait_nodes(*client, 4)) {
      std::fprintf(stderr, "cluster did not come up (logs in %s)\n", cluster.dir.c_str());
      return 1;
    }
    // Latency on an idle cluster: submit, then poll until the job runs or has run.
    std::vector<double> lat;
    for (int i = 0; i < 20; ++i) {
      const auto t0 = Clock::now();
      auto r = client->call(trivial(cluster.dir, 1000000 + i, "sleep 0.2"), 5s);
      if (!r || !std::holds_alternative<wire::SubmitReply>(*r)) return 1;
      wire::JobQuery q;
      q.jobs = {std::get<wire::SubmitReply>(*r).job};
      for (;;) {
        auto v = query(*client, q);
        if (!v.empty() && v[0].start_time) break;
        std::this_thread::sleep_for(1ms);
      }
      lat.push_back(seconds_since(t0) * 1000);
      std::this_thread::sleep_for(300ms);
    }
    std::sort(lat.begin(), lat.end());
    report("submit-to-start latency, idle (median)", lat[lat.size() / 2], "ms");
    report("submit-to-start latency, idle (max)", lat.back(), "ms");

    // Job throughput: `jobs` trivial jobs, first submit to last completion.
    const auto t0 = Clock::now();
    const int per_call = 500;
    int submitted = 0;
    while (submitted < jobs) {
      wire::SubmitBatch b;
      for (int i = 0; i < per_call && submitted < jobs; ++i)
        b.requests.push_back(trivial(cluster.dir, submitted++));
      if (!client->call(b, 30s)) return 1;
    }
    for (;;) {
      // Only the count of waiting and running jobs: a cheap page of one.
      wire::JobQuery q;
      q.limit = 1;
      auto r = client->call(q, 30s);
      if (!r || !std::holds_alternative<wire::JobQueryReply>(*r)) return 1;
      if (std::get<wire::JobQueryReply>(*r).total == 0) break;
      std::this_thread::sleep_for(50ms);
    }
    const double run_s = seconds_since(t0);
    report("jobs run end to end (first submit to last end)", jobs / run_s, "jobs/s");

    // Submission rate, one request per job (what a sequential CLI loop does, minus process start).
    const int seq = 2000;
    auto hold = [&](int n) {
      auto r = trivial(cluster.dir, 2000000 + n);
      r.spec.hold = true;
      return r;
    };
    auto t1 = Clock::now();
    for (int i = 0; i < seq; ++i) {
      if (!client->call(hold(i), 5s)) return 1;
    }
    report("submissions, sequential requests", seq / seconds_since(t1), "jobs/s");
    t1 = Clock::now();
    for (int k = 0; k < 10; ++k) {
      wire::SubmitBatch b;
      for (int i = 0; i < 1000; ++i) b.requests.push_back(hold(100000 + k * 1000 + i));
      if (!client->call(b, 30s)) return 1;
    }
    report("submissions, batch API (1000 per request)", 10000 / seconds_since(t1), "jobs/s");
    // Eight clients at once: requests of one loop turn share one transaction.
    t1 = Clock::now();
    std::vector<std::thread> clients;
    for (int c = 0; c < 8; ++c) {
      clients.emplace_back([&, c] {
        auto mine = net::RequestClient::connect(cluster.clients_ep);
        for (int i = 0; i < 500 && mine; ++i) (void)mine->call(hold(200000 + c * 1000 + i), 5s);
      });
    }
    for (auto& t : clients) t.join();
    report("submissions, 8 concurrent clients", 4000 / seconds_since(t1), "jobs/s");
    if (!cli.empty()) {
      const int n = 100;
      t1 = Clock::now();
      for (int i = 0; i < n; ++i) {
        const std::string cmd = cli + " --coordinator " + cluster.clients_ep +
                                " submit --hold --parsable -o /dev/null --wrap true >/dev/null";
        if (std::system(cmd.c_str()) != 0) return 1;
      }
      report("submissions, sequential `fairway submit`", n / seconds_since(t1), "jobs/s");
    }
  }
  {
    // Memory with a deep queue: declared nodes whose agents never come, so every job waits.
    Cluster cluster("[[nodes]]\nnames = \"cn[001-100]\"\nsockets = 2\ncores_per_socket = 14\n", 0);
    auto client = net::RequestClient::connect(cluster.clients_ep);
    std::this_thread::sleep_for(300ms);
    const long before = rss_kib(cluster.coordinator);
    const auto t0 = Clock::now();
    for (int k = 0; k < queued; k += 1000) {
      wire::SubmitBatch b;
      for (int i = 0; i < 1000 && k + i < queued; ++i) b.requests.push_back(trivial(cluster.dir, k + i));
      if (!client->call(b, 60s)) return 1;
    }
    report("queued jobs submitted (batch API)", queued / seconds_since(t0), "jobs/s");
    std::this_thread::sleep_for(1500ms);  // a few passes over the whole queue
    report("coordinator RSS, idle", static_cast<double>(before) / 1024.0, "MiB");
    report("coordinator RSS with the queue", static_cast<double>(rss_kib(cluster.coordinator)) / 1024.0,
           "MiB");
    // The whole queue, page by page, as `fairway queue` fetches it.
    const auto tq = Clock::now();
    std::size_t listed = 0;
    wire::JobQuery q;
    for (;;) {
      auto r = client->call(q, 60s);
      if (!r || !std::holds_alternative<wire::JobQueryReply>(*r)) return 1;
      const auto& page = std::get<wire::JobQueryReply>(*r);
      listed += page.jobs.size();
      if (!page.more || page.jobs.empty()) break;
      q.after = page.jobs.back().id;
    }
    report("queue listing of every job, paged", seconds_since(tq) * 1000, "ms");
    report("jobs listed", static_cast<double>(listed), "jobs");
  }
  return 0;
}
