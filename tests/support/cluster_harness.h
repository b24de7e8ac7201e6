// An in-process cluster for lifecycle tests: one CoordinatorService over a temporary store
// and N AgentServices on fake hosts, frames passed by hand and time moved by the test.
// No process, socket or sleep: a job's whole life (submit, launch, run, end, a lost node, a
// restart) is played synchronously through both daemons' real code, as a site would see it.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "agent/daemon/agent_service.h"
#include "coordinator/daemon/coordinator_service.h"
#include "shared/wire/codec.h"
#include "tests/support/fake_agent_host.h"
#include "tests/support/test_authenticators.h"

namespace fairway::testing {

using agent::LaunchedProcess;
using agent::LaunchRequest;
using agent::ProcessExit;

using daemon::test_support::RootOrAlice;

inline constexpr std::uint32_t kAlice = 1001;
inline constexpr std::uint32_t kRoot = 0;

class ClusterHarness {
 public:
  // Nodes n1..n`nodes` of `cores` cores each; `extra_config` is appended to the config.
  explicit ClusterHarness(int nodes, int cores = 4, const std::string& extra_config = "") {
    std::string tmpl = (std::filesystem::temp_directory_path() / "fw-cluster-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
    std::string text;
    for (int i = 1; i <= nodes; ++i) {
      text += "[[nodes]]\nnames = \"n" + std::to_string(i) +
              "\"\nsockets = 1\ncores_per_socket = " + std::to_string(cores) + "\n";
    }
    text += "[coordinator]\nstate_dir = \"" + dir_ + "\"\n" + extra_config;
    auto config = parse_config(text, "cluster harness");
    EXPECT_TRUE(config) << config.error().message;
    if (!config) return;
    config_ = *config;
    open_coordinator();
    for (int i = 1; i <= nodes; ++i) start_agent("n" + std::to_string(i), cores);
    deliver();
  }
  ~ClusterHarness() {
    agents_.clear();
    coordinator_.reset();
    std::filesystem::remove_all(dir_);
  }
  ClusterHarness(const ClusterHarness&) = delete;
  ClusterHarness& operator=(const ClusterHarness&) = delete;

  Time now() const { return now_; }
  daemon::CoordinatorService& coordinator() { return *coordinator_; }
  agent::AgentService& agent(const std::string& node) { return *agents_.at(node).service; }
  agent::testing::Machine& machine(const std::string& node) { return *agents_.at(node).machine; }

  // Moves time on: every daemon's timers run, then the frames they send are delivered.
  void advance(Duration d) {
    now_ = now_ + d;
    coordinator_->set_monotonic(now_);
    coordinator_->on_timer(now_);
    for (auto& [name, a] : agents_) {
      if (a.service == nullptr) continue;
      a.service->set_monotonic(now_);
      a.service->on_timer(now_);
    }
    deliver();
  }
  // Moves time on in steps of `step` (heartbeats and leases see every one).
  void advance(Duration total, Duration step) {
    for (Duration done; done < total; done = done + step) advance(step);
  }

  // Passes frames both ways until none is left; every launch the fake hosts are asked for
  // runs at once (a new pid), as the launch workers would hand it back.
  void deliver() {
    for (int round = 0; round < 1000; ++round) {
      bool moved = false;
      for (auto& [name, a] : agents_) {
        if (a.service == nullptr) continue;
        moved |= hand_back_launches(name, a);
        for (std::string& frame : a.service->take_outgoing()) {
          if (silent_.contains(name)) continue;
          // The connection is the node's own (as CURVE proves it with the node's key).
          coordinator_->on_agent_frame(name, frame, now_, name);
          moved = true;
        }
      }
      for (daemon::Outgoing& o : coordinator_->end_turn(now_)) {
        if (o.channel == daemon::Channel::kClients) {
          replies_.push_back(std::move(o.frame));
          continue;
        }
        auto it = agents_.find(o.peer);
        if (it == agents_.end() || it->second.service == nullptr || silent_.contains(o.peer)) continue;
        it->second.service->on_frame(o.frame, now_);
        moved = true;
      }
      if (!moved) return;
    }
    ADD_FAILURE() << "the daemons never fell quiet: frames still flowing after 1000 rounds";
  }

  // A client request as `uid` (kernel-proven), and the coordinator's answer.
  wire::Message ask(const wire::Message& m, std::uint32_t uid = kAlice) {
    replies_.clear();
    coordinator_->on_client_frame("client", wire::encode(m), now_,
                                  net::PeerCredentials{uid, uid == 0 ? 0u : 100u, 4242});
    deliver();
    if (replies_.empty()) {
      ADD_FAILURE() << "no reply";
      return wire::ErrorReply{};
    }
    auto reply = wire::decode(replies_.back());
    EXPECT_TRUE(reply);
    return reply ? *reply : wire::Message{wire::ErrorReply{}};
  }

  // Alice's job of `cores` cores per node on `nodes` nodes, limited to `limit`.
  JobId submit(std::int32_t cores = 1, Duration limit = Duration::minutes(10), std::int32_t nodes = 1,
               bool requeue = true) {
    wire::SubmitRequest r;
    r.spec.resources.cores = cores;
    r.spec.resources.nodes = nodes;
    r.spec.time_limit = limit;
    r.spec.requeue = requeue;
    r.program.argv = {"/bin/true"};
    r.program.working_dir = "/tmp";
    auto m = ask(r);
    const auto* reply = std::get_if<wire::SubmitReply>(&m);
    if (reply == nullptr) {
      const auto* e = std::get_if<wire::ErrorReply>(&m);
      ADD_FAILURE() << "submission refused: " << (e != nullptr ? e->message : "?");
      return JobId(0);
    }
    return reply->job;
  }
  wire::JobView view(JobId id) {
    wire::JobQuery q;
    q.jobs = {id};
    q.include_finished = true;
    auto m = ask(q);
    const auto* r = std::get_if<wire::JobQueryReply>(&m);
    if (r == nullptr || r->jobs.empty()) {
      ADD_FAILURE() << "job " << id.value() << " not answered";
      return {};
    }
    return r->jobs.front();
  }
  JobState state(JobId id) { return view(id).state; }
  Status control(wire::JobAction action, JobId id, std::uint32_t uid = kAlice) {
    auto m = ask(wire::JobControl{action, {id}, uid == 0 ? "root" : "alice"}, uid);
    const auto* r = std::get_if<wire::JobControlReply>(&m);
    if (r == nullptr || r->results.empty()) return make_error(ErrorCode::kInternal, "no control reply");
    if (!r->results[0].ok) return make_error(ErrorCode::kInvalidArgument, r->results[0].message);
    return ok_status();
  }

  // The node whose host runs the job's own process (its batch script), if any does.
  std::optional<std::string> head_of(JobId id) const {
    for (const auto& [name, a] : agents_) {
      if (a.pids.contains(id.value()) && a.machine->alive.contains(a.pids.at(id.value()))) return name;
    }
    return std::nullopt;
  }
  // The job's own process runs on `node` (a silent node's may still: nobody reaps it).
  bool runs_on(JobId id, const std::string& node) const {
    const Agent& a = agents_.at(node);
    auto it = a.pids.find(id.value());
    return it != a.pids.end() && a.machine->alive.contains(it->second);
  }
  // Nodes asked to launch something of the job (its script, or a member's hold).
  std::set<std::string> nodes_launching(JobId id) const {
    std::set<std::string> out;
    for (const auto& [name, a] : agents_) {
      for (const LaunchRequest& r : a.machine->launches) {
        if (r.job == id) out.insert(name);
      }
    }
    return out;
  }
  // The job's process on `node` ends as `how` and the agent reaps it.
  void exits(JobId id, ProcessExit how, const std::string& node) {
    Agent& a = agents_.at(node);
    auto it = a.pids.find(id.value());
    ASSERT_NE(it, a.pids.end()) << "job " << id.value() << " has no process on " << node;
    a.machine->exited.push_back({static_cast<pid_t>(it->second), how});
    a.machine->alive.erase(it->second);
    a.service->on_children(now_);
    deliver();
  }
  // Every process that was sent `signal` as a group dies of it (a cancel or a limit's TERM).
  void signalled_die(int signal) {
    for (auto& [name, a] : agents_) {
      if (a.service == nullptr) continue;
      std::set<std::int64_t> hit;
      for (auto [pgid, sig] : a.machine->group_signals) {
        if (sig == signal) hit.insert(pgid);
      }
      bool reaped = false;
      for (std::int64_t pid : hit) {
        if (!a.machine->alive.erase(pid)) continue;
        a.machine->exited.push_back({static_cast<pid_t>(pid), ProcessExit::signalled(signal)});
        reaped = true;
      }
      if (reaped) a.service->on_children(now_);
    }
    deliver();
  }

  // The node's launch workers are slow: what it is asked to launch is handed back only once
  // `held` is false again (and the frames are delivered).
  void hold_launches(const std::string& node, bool held = true) {
    if (held) {
      slow_.insert(node);
    } else {
      slow_.erase(node);
    }
  }

  // The node's network goes: nothing it sends arrives, nothing reaches it.
  void silence(const std::string& node) { silent_.insert(node); }
  // Its network comes back: what it sends from now on arrives.
  void hear_again(const std::string& node) { silent_.erase(node); }
  // A crash of the coordinator (kill -9) and its restart on the same store.
  void restart_coordinator() {
    coordinator_.reset();
    open_coordinator();
    deliver();
  }

 private:
  struct Agent {
    std::shared_ptr<agent::testing::Machine> machine = std::make_shared<agent::testing::Machine>();
    std::unique_ptr<agent::AgentService> service;
    std::size_t launches_seen = 0;
    std::map<std::uint64_t, std::int64_t> pids;  // job -> its script's process
  };

  void open_coordinator() {
    auto s = daemon::CoordinatorService::open(config_, now_, std::make_unique<RootOrAlice>());
    ASSERT_TRUE(s) << s.error().message;
    coordinator_ = std::move(*s);
    coordinator_->set_monotonic(now_);
  }
  void start_agent(const std::string& name, int cores) {
    agent::DiscoveredNode node;
    node.topology = NodeTopology::uniform(name, 1, cores);
    for (int c = 0; c < cores; ++c) node.core_pus.push_back({c});
    agent::AgentOptions o;
    o.spool_dir = "/nonexistent";  // the fake host has no files
    o.apply_binding = false;
    o.kill_grace = Duration::seconds(5);
    o.step_relay_path = "/usr/lib/fairway/fairway-step";
    Agent a;
    auto s = agent::AgentService::start(std::move(node), o, now_,
                                        std::make_unique<agent::testing::FakeHost>(a.machine));
    ASSERT_TRUE(s) << s.error().message;
    a.service = std::move(*s);
    a.service->set_monotonic(now_);
    agents_.emplace(name, std::move(a));
  }
  bool hand_back_launches(const std::string& name, Agent& a) {
    if (a.launches_seen == a.machine->launches.size() || silent_.contains(name) || slow_.contains(name))
      return false;
    for (; a.launches_seen < a.machine->launches.size(); ++a.launches_seen) {
      const LaunchRequest& r = a.machine->launches[a.launches_seen];
      const std::int64_t pid = next_pid_++;
      a.machine->finished.push_back(
          {r.job, r.step, LaunchedProcess{static_cast<pid_t>(pid), static_cast<pid_t>(pid), {}}});
      a.machine->alive.insert(pid);
      if (!r.step) a.pids[r.job.value()] = pid;
    }
    a.service->on_launches_done(now_);
    return true;
  }

  std::string dir_;
  Config config_;
  Time now_ = Time::from_seconds(1'700'000'000);
  std::unique_ptr<daemon::CoordinatorService> coordinator_;
  std::map<std::string, Agent> agents_;
  std::set<std::string> silent_;
  std::set<std::string> slow_;  // hold_launches
  std::vector<std::string> replies_;
  std::int64_t next_pid_ = 1000;
};

}  // namespace fairway::testing
