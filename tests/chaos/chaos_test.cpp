// Chaos test: a submit storm from several clients while the coordinator and agents are
// killed (SIGKILL) and restarted at random; then every acknowledged job must be accounted
// for exactly once, and no job may have run twice at once or past its node's requeue.
//
// Run alone: chaos_test --seed N --rounds R --clients C --jobs J (or CHAOS_SEED, ...).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process_reaper.h"
#include "run_log.h"
#include "shared/net/curve_keys.h"
#include "shared/net/request_client.h"
#include "shared/wire/messages.h"

namespace fairway::chaos {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

struct Options {
  std::uint64_t seed = 0;
  int rounds = 8;
  int clients = 3;
  int jobs = 150;
  int agents = 3;
};
Options g_opt;

class Chaos : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "fw-chaos-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
    std::filesystem::permissions(dir_, std::filesystem::perms::all);
    agents_ep_ = "ipc://" + dir_ + "/agents.sock";
    clients_ep_ = "ipc://" + dir_ + "/clients.sock";
    std::filesystem::create_directories(dir_ + "/keys/agents");
    make_keys("coordinator");
    for (int i = 0; i < g_opt.agents; ++i) {
      names_.push_back("cn0" + std::to_string(i + 1));
      make_keys(names_.back());
    }
    // Short timeouts so that a down node is declared, fenced and requeued within a run.
    std::ofstream(dir_ + "/fairway.toml")
        << "[coordinator]\nheartbeat_timeout = 4\npass_interval = 1\nsubmit_burst = 100000\n"
        << "[agent]\nallow_root_jobs = true\nheartbeat_interval = 1\nkill_grace = 1\n"
        << "coordinator_lease = 3\n"
        << "[security]\ncoordinator_secret_key = \"" << dir_ << "/keys/coordinator.key\"\n"
        << "coordinator_public_key = \"" << dir_ << "/keys/coordinator.pub\"\n"
        << "agent_keys_dir = \"" << dir_ << "/keys/agents\"\n";
    agent_pids_.assign(names_.size(), -1);
  }

  void TearDown() override {
    kill_everything();
    if (HasFailure() || std::getenv("CHAOS_KEEP") != nullptr) {
      std::cerr << "chaos: logs kept in " << dir_ << " (seed " << g_opt.seed << ")\n";
    } else {
      std::filesystem::remove_all(dir_);
    }
  }

  void make_keys(const std::string& name) {
    auto keys = net::generate_curve_keypair();
    ASSERT_TRUE(keys) << keys.error().message;
    ASSERT_TRUE(net::write_curve_keypair(dir_ + "/keys", name, *keys));
    if (name != "coordinator") {
      std::ofstream(dir_ + "/keys/agents/" + name + ".pub") << keys->public_z85 << "\n";
    }
  }

  // Forked from the main thread only: PR_SET_PDEATHSIG follows the forking thread.
  pid_t spawn(std::vector<std::string> argv, const std::string& log) {
    const pid_t pid = fork();
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
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
    return pid;
  }

  void kill_and_wait(pid_t& pid) {
    if (pid <= 0) return;
    kill(pid, SIGKILL);
    const auto end = Clock::now() + 10s;
    while (!reaper_.exited(pid) && Clock::now() < end) std::this_thread::sleep_for(10ms);
    pid = -1;
  }

  void start_coordinator() {
    coordinator_ = spawn({FAIRWAY_COORDINATOR_BINARY, "--config", dir_ + "/fairway.toml", "--listen-agents",
                          agents_ep_, "--listen-clients", clients_ep_, "--state-dir", dir_ + "/state"},
                         dir_ + "/coordinator.log");
  }

  void start_agent(std::size_t i) {
    const std::string& name = names_[i];
    agent_pids_[i] =
        spawn({FAIRWAY_AGENT_BINARY, "--coordinator", agents_ep_, "--name", name, "--spool",
               dir_ + "/spool-" + name, "--config", dir_ + "/fairway.toml", "--key",
               dir_ + "/keys/" + name + ".key", "--topology",
               std::string(FAIRWAY_SOURCE_DIR) + "/tests/fixtures/topologies/kebnekaise-v100.xml"},
              dir_ + "/agent-" + name + ".log");
  }

  Result<wire::Message> call(const wire::Message& m, std::chrono::milliseconds timeout = 3000ms) {
    auto client = net::RequestClient::connect(clients_ep_);
    if (!client) return std::unexpected(client.error());
    return client->call(m, timeout);
  }

  bool wait_nodes_up(std::chrono::seconds limit) {
    const auto end = Clock::now() + limit;
    while (Clock::now() < end) {
      auto r = call(wire::NodeQuery{}, 2000ms);
      if (r) {
        if (auto* reply = std::get_if<wire::NodeQueryReply>(&*r)) {
          const auto up = std::count_if(reply->nodes.begin(), reply->nodes.end(),
                                        [](const auto& n) { return n.state != "down"; });
          if (static_cast<std::size_t>(up) == names_.size()) return true;
        }
      }
      std::this_thread::sleep_for(100ms);
    }
    return false;
  }

  // All jobs the coordinator knows, finished ones included, page by page.
  std::optional<std::vector<wire::JobView>> all_jobs() {
    std::vector<wire::JobView> out;
    wire::JobQuery q;
    q.include_finished = true;
    q.limit = 1000;
    for (int page = 0; page < 10000; ++page) {
      auto r = call(q, 10000ms);
      if (!r) return std::nullopt;
      auto* reply = std::get_if<wire::JobQueryReply>(&*r);
      if (reply == nullptr) return std::nullopt;
      out.insert(out.end(), reply->jobs.begin(), reply->jobs.end());
      if (!reply->more || reply->jobs.empty()) return out;
      q.after = reply->jobs.back().id;
    }
    return out;
  }

  // The job's script: start, a tick every 0.1 s, end; one short append per line.
  wire::SubmitRequest job_request(const std::string& token, int ticks) {
    wire::SubmitRequest r;
    r.client_token = token;
    r.spec.user = "root";
    r.spec.name = token;
    r.spec.resources.cores = 2;
    r.spec.time_limit = Duration::minutes(5);
    const std::string script = "L=" + dir_ +
                               "/runs.log; R=\"$FAIRWAY_JOB_ID $FAIRWAY_NODELIST $$\"\n"
                               "t() { printf '%s %s %s\\n' \"$1\" \"$R\" \"$(date +%s%N)\" >> \"$L\"; }\n"
                               "t start; i=0; while [ $i -lt " +
                               std::to_string(ticks) +
                               " ]; do sleep 0.1; t tick; "
                               "i=$((i+1)); done; t end\n";
    r.program.argv = {"/bin/sh", "-c", script};
    r.program.working_dir = dir_;
    r.program.stdout_path = "/dev/null";
    r.program.stderr_path = "/dev/null";
    r.program.env = {{"PATH", "/usr/bin:/bin"}};
    return r;
  }

  std::string dir_, agents_ep_, clients_ep_;
  std::vector<std::string> names_;
  Reaper reaper_;
  pid_t coordinator_ = -1;
  std::vector<pid_t> agent_pids_;
};

TEST_F(Chaos, EveryAcknowledgedJobRunsExactlyOnceThroughKillsAndRestarts) {
  const Options& o = g_opt;
  std::cout << "chaos: seed " << o.seed << " rounds " << o.rounds << " clients " << o.clients << " jobs "
            << o.jobs << " agents " << o.agents << " dir " << dir_ << std::endl;
  std::mt19937_64 rng(o.seed);

  start_coordinator();
  for (std::size_t i = 0; i < names_.size(); ++i) start_agent(i);
  // A brand-new coordinator knows no node until agents register; the storm starts after.
  ASSERT_TRUE(wait_nodes_up(30s)) << "the cluster did not come up (seed " << o.seed << ")";

  // The storm: each client submits its share; a call without a reply is retried with the
  // same token, as the CLI does, until acknowledged or the storm's deadline passes.
  std::mutex mu;
  std::map<std::string, std::int64_t> acked;  // token -> job id
  std::map<std::string, std::set<std::int64_t>> ids_per_token;
  std::atomic<int> timeouts{0}, refusals{0}, gave_up{0};
  std::map<std::string, int> refusal_texts;
  const auto storm_deadline = Clock::now() + std::chrono::seconds(60 + o.jobs / 5 + o.rounds * 10);
  std::vector<std::thread> clients;
  std::vector<std::vector<int>> ticks(o.clients);
  // Submissions are spread over about as long as the chaos lasts (rounds x ~2.7 s), so
  // that they meet the kills; each client pauses a seed-driven random time between them.
  std::vector<std::vector<int>> pauses_ms(o.clients);
  const int mean_pause_ms = o.rounds * 2700 * o.clients / o.jobs;
  for (int c = 0; c < o.clients; ++c) {
    for (int k = c; k < o.jobs; k += o.clients) {
      // Mostly short jobs; one in five runs 2-6 s, so that it outlives an agent outage.
      ticks[c].push_back(static_cast<int>(rng() % 5 == 0 ? 20 + rng() % 40 : rng() % 4));
      pauses_ms[c].push_back(mean_pause_ms > 0 ? static_cast<int>(rng() % (2 * mean_pause_ms + 1)) : 0);
    }
  }
  for (int c = 0; c < o.clients; ++c) {
    clients.emplace_back([&, c] {
      auto client = net::RequestClient::connect(clients_ep_);
      if (!client) return;
      int k = 0;
      for (std::size_t n = 0; n < ticks[c].size(); ++n) {
        std::this_thread::sleep_for(std::chrono::milliseconds(pauses_ms[c][n]));
        const int t = ticks[c][n];
        const std::string token =
            "s" + std::to_string(o.seed) + "-c" + std::to_string(c) + "-" + std::to_string(k++);
        const auto req = job_request(token, t);
        bool done = false;
        while (!done && Clock::now() < storm_deadline) {
          auto r = client->call(req, 2000ms);
          if (!r) {
            ++timeouts;
            continue;
          }
          if (auto* ok = std::get_if<wire::SubmitReply>(&*r)) {
            std::lock_guard lock(mu);
            acked.emplace(token, ok->job.value());
            ids_per_token[token].insert(ok->job.value());
            done = true;
          } else {
            ++refusals;
            if (auto* e = std::get_if<wire::ErrorReply>(&*r)) {
              std::lock_guard lock(mu);
              ++refusal_texts[e->message.substr(0, 80)];
            }
            std::this_thread::sleep_for(100ms);
          }
        }
        if (!done) ++gave_up;
      }
    });
  }

  // The chaos: kill -9 the coordinator or an agent, restart it after a short random delay.
  int coordinator_kills = 0, agent_kills = 0;
  std::uniform_int_distribution<int> pause_ms(200, 1500);
  for (int round = 0; round < o.rounds; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms(rng)));
    const bool coordinator = rng() % 3 == 0;
    // Mostly short outages; sometimes longer than heartbeat_timeout + lease, so that nodes
    // are declared down and their jobs requeued, or agents fence themselves.
    const int down_ms =
        rng() % 4 == 0 ? 4000 + static_cast<int>(rng() % 5000) : static_cast<int>(rng() % 1500);
    if (coordinator) {
      kill_and_wait(coordinator_);
      ++coordinator_kills;
      std::this_thread::sleep_for(std::chrono::milliseconds(down_ms));
      start_coordinator();
    } else {
      const std::size_t i = rng() % names_.size();
      kill_and_wait(agent_pids_[i]);
      ++agent_kills;
      std::this_thread::sleep_for(std::chrono::milliseconds(down_ms));
      start_agent(i);
    }
    std::cout << "chaos: round " << round << " killed " << (coordinator ? "coordinator" : "an agent")
              << " for " << down_ms << " ms" << std::endl;
  }
  for (auto& t : clients) t.join();
  std::cout << "chaos: storm over: " << acked.size() << " acknowledged, " << timeouts << " timeouts retried, "
            << refusals << " refusals retried, " << gave_up << " gave up" << std::endl;
  for (const auto& [text, n] : refusal_texts)
    std::cout << "chaos:   refused " << n << "x: " << text << std::endl;

  // Quiet: everything acknowledged must reach a terminal state.
  std::set<std::int64_t> acked_ids;
  for (const auto& [token, id] : acked) acked_ids.insert(id);
  std::vector<wire::JobView> jobs;
  const auto quiet_deadline = Clock::now() + std::chrono::seconds(60 + o.jobs / 10);
  while (Clock::now() < quiet_deadline) {
    auto all = all_jobs();
    if (all) {
      jobs = *all;
      std::size_t terminal = 0;
      for (const auto& j : jobs) {
        if (acked_ids.contains(j.id.value()) && is_terminal(j.state)) ++terminal;
      }
      if (terminal == acked_ids.size()) break;
    }
    std::this_thread::sleep_for(500ms);
  }
  // Let stragglers (unfenced copies) finish writing before the log is read.
  std::this_thread::sleep_for(1s);

  // ---- accounting
  std::map<std::int64_t, const wire::JobView*> by_id;
  std::map<std::string, std::vector<std::int64_t>> jobs_per_token;
  for (const auto& j : jobs) {
    by_id[j.id.value()] = &j;
    jobs_per_token[j.name].push_back(j.id.value());
  }
  std::vector<std::string> lost;
  for (const auto& [token, id] : acked) {
    auto it = by_id.find(id);
    if (it == by_id.end()) {
      lost.push_back("job " + std::to_string(id) + " (" + token + ") unknown to the coordinator");
    } else if (!is_terminal(it->second->state)) {
      lost.push_back("job " + std::to_string(id) + " (" + token +
                     ") never terminal: " + std::string(to_string(it->second->state)));
    } else if (it->second->name != token) {
      lost.push_back("job " + std::to_string(id) + " acknowledged for " + token + " is " + it->second->name);
    }
  }
  std::vector<std::string> duplicated;
  for (const auto& [token, ids] : jobs_per_token) {
    if (ids.size() > 1) {
      std::string s = token + " ->";
      for (auto id : ids) s += " " + std::to_string(id);
      duplicated.push_back(s);
    }
  }
  for (const auto& [token, ids] : ids_per_token) {
    if (ids.size() > 1) duplicated.push_back(token + " acknowledged with several ids");
  }
  std::map<std::string, int> end_states;
  for (const auto& id : acked_ids) {
    if (auto it = by_id.find(id); it != by_id.end()) ++end_states[std::string(to_string(it->second->state))];
  }

  // Runs, from the jobs' own log.
  const std::map<std::string, JobRun> runs = read_runs(dir_ + "/runs.log");
  std::map<std::int64_t, std::vector<const JobRun*>> runs_of;
  for (const auto& [k, r] : runs) runs_of[r.job].push_back(&r);

  // The coordinator's view, from its log: when each job was recorded COMPLETED, and each
  // requeue because a node was lost (the coordinator gave its copy up).
  struct Requeue {
    std::int64_t at = 0;
    std::string node;
  };
  std::map<std::int64_t, std::int64_t> completed_at;
  std::map<std::int64_t, std::vector<Requeue>> node_lost_requeues;
  int node_down_events = 0, requeues_node_lost = 0;
  {
    std::istringstream in(slurp(dir_ + "/coordinator.log"));
    std::string line;
    while (std::getline(in, line)) {
      const std::int64_t at = parse_stamp(line.substr(0, line.find(' ')));
      if (at == 0) continue;
      const std::int64_t job = std::atoll(field(line, "job").c_str());
      if (line.find(" node_down ") != std::string::npos) ++node_down_events;
      if (line.find(" job_ended ") != std::string::npos && field(line, "state") == "completed" &&
          !completed_at.contains(job)) {
        completed_at[job] = at;
      }
      if (line.find(" job_requeued ") == std::string::npos) continue;
      const std::string reason = field(line, "reason");
      if (!reason.starts_with("node ") || !reason.ends_with(" lost")) continue;
      ++requeues_node_lost;
      node_lost_requeues[job].push_back({at, reason.substr(5, reason.size() - 10)});
    }
  }

  // No run on a node after the coordinator declared it lost and requeued the job there
  // (the log's stamp has millisecond precision: that much is allowed, nothing more).
  std::vector<std::string> ran_after_requeue;
  for (const auto& [job, rqs] : node_lost_requeues) {
    for (const auto& rq : rqs) {
      for (const JobRun* r : runs_of[job]) {
        if (r->node == rq.node && r->start < rq.at + 1000000 && r->last > rq.at + 1000000) {
          ran_after_requeue.push_back("job " + std::to_string(job) + " requeued (node " + rq.node +
                                      " lost) still ran there " +
                                      std::to_string((r->last - rq.at) / 1000000) + " ms later");
        }
      }
    }
  }

  // Double runs: two runs of one job overlapping in time. Runs again: a run starting after
  // the coordinator recorded the job COMPLETED, or after a run of it ran to its end on a
  // node that was not declared lost meanwhile (its exit was lost, and the job re-run). A
  // rerun after the node was lost past its lease, of a run that ended unreported while its
  // agent was dead, is at-least-once by design: counted, not failed.
  std::vector<std::string> double_runs, ran_after_completion;
  int reruns_after_node_lost = 0;
  for (auto& [job, rs] : runs_of) {
    std::sort(rs.begin(), rs.end(), [](auto* a, auto* b) { return a->start < b->start; });
    for (std::size_t a = 0; a < rs.size(); ++a) {
      if (auto c = completed_at.find(job); c != completed_at.end() && rs[a]->start > c->second + 1000000) {
        ran_after_completion.push_back("job " + std::to_string(job) + " started on " + rs[a]->node + " " +
                                       std::to_string((rs[a]->start - c->second) / 1000000) +
                                       " ms after the coordinator recorded it COMPLETED");
      }
      for (std::size_t b = a + 1; b < rs.size(); ++b) {
        if (rs[b]->start <= rs[a]->last) {
          double_runs.push_back("job " + std::to_string(job) + ": " + rs[a]->node + " pid " + rs[a]->pid +
                                " [" + std::to_string(rs[a]->start) + ", " + std::to_string(rs[a]->last) +
                                "] overlaps " + rs[b]->node + " pid " + rs[b]->pid + " from " +
                                std::to_string(rs[b]->start));
        }
        if (rs[a]->ended && rs[b]->start > rs[a]->end && b == a + 1) {
          const auto& rqs = node_lost_requeues[job];
          const bool node_lost = std::any_of(rqs.begin(), rqs.end(), [&](const Requeue& rq) {
            return rq.node == rs[a]->node && rq.at >= rs[a]->end - 1000000 && rq.at <= rs[b]->start + 1000000;
          });
          if (node_lost) {
            ++reruns_after_node_lost;
          } else {
            ran_after_completion.push_back("job " + std::to_string(job) + " ran to its end on " +
                                           rs[a]->node + " and started again on " + rs[b]->node + " " +
                                           std::to_string((rs[b]->start - rs[a]->end) / 1000000) +
                                           " ms later, its node not declared lost");
          }
        }
      }
    }
  }

  // Every script exits 0: one that ran to its end must be reported COMPLETED, whatever
  // happened to its agent meanwhile.
  std::vector<std::string> wrong_outcome;
  for (const auto& id : acked_ids) {
    auto it = by_id.find(id);
    if (it == by_id.end() || !is_terminal(it->second->state) || it->second->state == JobState::kCompleted)
      continue;
    for (const JobRun* r : runs_of[id]) {
      if (r->ended) {
        wrong_outcome.push_back(
            "job " + std::to_string(id) + " ran to its end (exit 0) on " + r->node + " but ended " +
            std::string(to_string(it->second->state)) +
            (it->second->state_reason.empty() ? "" : " (" + it->second->state_reason + ")"));
        break;
      }
    }
  }

  std::cout << "chaos: SUMMARY seed=" << o.seed << " kills coordinator=" << coordinator_kills
            << " agents=" << agent_kills << " acknowledged=" << acked.size() << " jobs_known=" << jobs.size()
            << " runs=" << runs.size() << " lost=" << lost.size() << " duplicated=" << duplicated.size()
            << " double_runs=" << double_runs.size() << " ran_after_requeue=" << ran_after_requeue.size()
            << " ran_after_completion=" << ran_after_completion.size()
            << " wrong_outcome=" << wrong_outcome.size()
            << " reruns_after_node_lost=" << reruns_after_node_lost
            << " node_down_events=" << node_down_events << " requeued_node_lost=" << requeues_node_lost
            << " submit_refusals=" << refusals << " submit_timeouts=" << timeouts << std::endl;
  std::cout << "chaos: end states:";
  for (const auto& [s, n] : end_states) std::cout << " " << s << "=" << n;
  std::cout << std::endl;

  auto show = [](const std::vector<std::string>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size() && i < 15; ++i) s += "\n  " + v[i];
    if (v.size() > 15) s += "\n  ... " + std::to_string(v.size() - 15) + " more";
    return s;
  };
  int capacity_refusals = 0;
  for (const auto& [text, n] : refusal_texts) {
    if (text.find("can ever hold") != std::string::npos) capacity_refusals += n;
  }
  EXPECT_EQ(capacity_refusals, 0) << "submissions refused as bigger than the partition (its nodes forgotten "
                                     "after a coordinator restart), seed "
                                  << o.seed;
  EXPECT_EQ(gave_up.load(), 0) << "submissions never acknowledged within the storm's deadline";
  EXPECT_TRUE(lost.empty()) << "acknowledged jobs lost (seed " << o.seed << "):" << show(lost);
  EXPECT_TRUE(duplicated.empty()) << "one client token, several jobs (seed " << o.seed
                                  << "):" << show(duplicated);
  EXPECT_TRUE(double_runs.empty()) << "jobs running twice at the same time (seed " << o.seed
                                   << "):" << show(double_runs);
  EXPECT_TRUE(ran_after_requeue.empty()) << "jobs still running on a node after it was declared down and "
                                            "the job requeued (seed "
                                         << o.seed << "):" << show(ran_after_requeue);
  EXPECT_TRUE(ran_after_completion.empty())
      << "jobs that ran again after completing (seed " << o.seed << "):" << show(ran_after_completion);
  EXPECT_TRUE(wrong_outcome.empty()) << "jobs whose script exited 0 but did not end COMPLETED (seed "
                                     << o.seed << "):" << show(wrong_outcome);
}

}  // namespace
}  // namespace fairway::chaos

int main(int argc, char** argv) {
  using fairway::chaos::g_opt;
  auto env = [](const char* name, auto& into) {
    if (const char* v = std::getenv(name))
      into = static_cast<std::remove_reference_t<decltype(into)>>(std::strtoull(v, nullptr, 10));
  };
  g_opt.seed =
      static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) % 1000000;
  env("CHAOS_SEED", g_opt.seed);
  env("CHAOS_ROUNDS", g_opt.rounds);
  env("CHAOS_CLIENTS", g_opt.clients);
  env("CHAOS_JOBS", g_opt.jobs);
  env("CHAOS_AGENTS", g_opt.agents);
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const auto value = std::strtoull(argv[i + 1], nullptr, 10);
    if (flag == "--seed")
      g_opt.seed = value;
    else if (flag == "--rounds")
      g_opt.rounds = static_cast<int>(value);
    else if (flag == "--clients")
      g_opt.clients = static_cast<int>(value);
    else if (flag == "--jobs")
      g_opt.jobs = static_cast<int>(value);
    else if (flag == "--agents")
      g_opt.agents = static_cast<int>(value);
    else {
      std::cerr << "chaos_test: unknown flag " << flag
                << " (--seed, --rounds, --clients, --jobs, --agents)\n";
      return 2;
    }
  }
  if (g_opt.agents < 1 || g_opt.agents > 9 || g_opt.clients < 1 || g_opt.jobs < 1 || g_opt.rounds < 0) {
    std::cerr << "chaos_test: agents must be 1..9, clients and jobs at least 1, rounds at least 0\n";
    return 2;
  }
  // Job processes orphaned by a killed agent become ours, so that they are reaped and killed.
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  return RUN_ALL_TESTS();
}
