// The fixture that starts an AgentService on the fake host (tests/support/fake_agent_host.h:
// no process, no file, no cgroup) for the agent's service tests.
// The host records what the service asks (launches, signals, checkpoints, cgroups, the
// lease) and the test plays the machine's part (a launch handed back, a child reaped, a
// process gone), as Mesos tests its allocator: every rule checked synchronously and exactly.
#pragma once

#include <gtest/gtest.h>

#include <csignal>
#include <map>
#include <memory>
#include <set>

#include "agent/daemon/agent_service.h"
#include "agent/step/relay_plan.h"
#include "shared/wire/codec.h"
#include "tests/support/fake_agent_host.h"

namespace fairway::agent::testing {

inline Time T(std::int64_t s) {
  return Time::from_seconds(1'700'000'000 + s);
}

// A one-node step of `job` (its relay runs the command "sim").
inline wire::LaunchStep step_of(std::uint64_t job, std::int32_t step) {
  return wire::LaunchStep{JobId(job),
                          step,
                          "alice",
                          1001,
                          100,
                          {"sim"},
                          {},
                          "/home/alice",
                          {"n1"},
                          {1},
                          0,
                          1,
                          "tcp://10.0.0.9:4000",
                          "0123456789abcdef0123456789abcdef",
                          false,
                          "",
                          "",
                          "",
                          {}};
}

class AgentOnFakeHost : public ::testing::Test {
 protected:
  void SetUp() override { start(); }

  // A node of 4 cores (GPUs as `node` says); the service's options as `options` say.
  void start() {
    auto s = AgentService::start(node, options, T(0), std::make_unique<FakeHost>(machine));
    ASSERT_TRUE(s) << s.error().message;
    service = std::move(*s);
    service->set_monotonic(T(0));
    register_frames = decode_all();
    service->on_frame(wire::encode(wire::Ack{0}), T(0));
    (void)decode_all();
  }

  std::vector<wire::Message> decode_all() {
    std::vector<wire::Message> out;
    for (const std::string& f : service->take_outgoing()) {
      auto m = wire::decode(f);
      EXPECT_TRUE(m);
      if (m) out.push_back(*m);
    }
    return out;
  }
  // The states reported for `job` since the last call, in order; a report sent again
  // (unacknowledged past the resend patience: the same seq) counts once.
  std::vector<JobState> reported(std::uint64_t job) {
    std::vector<JobState> states;
    for (const wire::Message& m : decode_all()) {
      const auto* u = std::get_if<wire::JobStatusUpdate>(&m);
      if (u != nullptr && !seen_seqs.insert(u->seq).second) continue;
      if (u != nullptr && u->job == JobId(job)) {
        states.push_back(u->state);
        last[job] = *u;
      }
    }
    return states;
  }

  wire::LaunchJob launch(std::uint64_t id, std::int64_t limit_s = 600) const {
    wire::LaunchJob l;
    l.job = JobId(id);
    l.user = "alice";
    l.uid = 1001;
    l.gid = 100;
    l.program.argv = {"/bin/true"};
    l.program.working_dir = "/home/alice";
    l.cores = {static_cast<std::int32_t>(id % 4)};
    l.time_limit = Duration::seconds(limit_s);
    l.nodelist = {"n1"};
    return l;
  }
  void send(const wire::Message& m, Time now) { service->on_frame(wire::encode(m), now); }
  // The host hands the launch of `job` back: it runs as `pid` (its own group).
  void launched(std::uint64_t job, std::int64_t pid, Time now,
                std::optional<std::int32_t> step = std::nullopt) {
    machine->finished.push_back(
        {JobId(job), step, LaunchedProcess{static_cast<pid_t>(pid), static_cast<pid_t>(pid), {}}});
    machine->alive.insert(pid);
    service->on_launches_done(now);
  }
  // `job` runs as `pid`, and its step 0's relay as `pid` + 10; its start is taken.
  void running_with_step(std::uint64_t job, std::int64_t pid, Time now) {
    send(launch(job), now);
    launched(job, pid, now);
    send(step_of(job, 0), now);
    launched(job, pid + 10, now, 0);
    (void)reported(job);
  }
  void exits(std::int64_t pid, ProcessExit how, Time now) {
    machine->exited.push_back({static_cast<pid_t>(pid), how});
    machine->alive.erase(pid);
    service->on_children(now);
  }

  static DiscoveredNode four_cores() {
    DiscoveredNode node;
    node.topology = NodeTopology::uniform("n1", 1, 4);
    node.core_pus = {{0}, {1}, {2}, {3}};
    return node;
  }
  static AgentOptions fake_options() {
    AgentOptions o;
    o.spool_dir = "/nonexistent";  // the fake host has no files
    o.apply_binding = false;       // no affinity
    o.kill_grace = Duration::seconds(5);
    o.step_relay_path = "/usr/lib/fairway/fairway-step";
    return o;
  }

  DiscoveredNode node = four_cores();
  AgentOptions options = fake_options();
  std::shared_ptr<Machine> machine = std::make_shared<Machine>();
  std::unique_ptr<AgentService> service;
  std::vector<wire::Message> register_frames;
  std::map<std::uint64_t, wire::JobStatusUpdate> last;
  std::set<std::uint64_t> seen_seqs;
};

}  // namespace fairway::agent::testing
