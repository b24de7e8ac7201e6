// The fake AgentHost the AgentService tests drive the service through (no process, no
// file, no cgroup) and the fixture that starts a service on it.
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

namespace fairway::agent::testing {

inline Time T(std::int64_t s) { return Time::from_seconds(1'700'000'000 + s); }

// What the fake machine holds and what the service asked of it.
struct Machine {
  std::vector<LaunchRequest> launches;
  std::vector<LaunchWorkers::Done> finished;  // handed back at the next take_launched
  std::vector<ReapedChild> exited;            // reaped at the next reap
  std::vector<std::pair<std::int64_t, int>> group_signals, process_signals;
  std::set<std::int64_t> alive;
  std::set<std::int64_t> live_groups;  // groups with a process left once their leader is gone
  std::map<std::uint64_t, JobCheckpoint> checkpoints;
  std::map<std::pair<std::uint64_t, std::int32_t>, StepCheckpoint> step_checkpoints;
  CheckpointScan at_start;
  std::map<std::uint64_t, ExitRecord> exit_records;
  std::vector<JobId> forgotten;
  std::vector<std::pair<JobId, std::int32_t>> forgotten_steps;
  std::optional<Time> lease;
  // Cgroups: none unless a test says so; what was asked of them.
  bool cgroups = false;
  std::vector<CgroupLimits> cgroup_limits;
  std::vector<JobId> removed_cgroups;
  std::map<std::uint64_t, JobUsage> usage;
  std::vector<std::vector<DeviceNumber>> gpu_devices;
  std::optional<std::string> cgroup_error;  // prepare_cgroup fails with it
};

class FakeHost final : public AgentHost {
 public:
  explicit FakeHost(std::shared_ptr<Machine> m) : m_(std::move(m)) {}
  void launch(LaunchRequest request, CgroupAttach) override { m_->launches.push_back(std::move(request)); }
  std::vector<LaunchWorkers::Done> take_launched() override { return std::exchange(m_->finished, {}); }
  int launch_fd() const override { return -1; }
  std::vector<ReapedChild> reap() override { return std::exchange(m_->exited, {}); }
  Status signal_group(std::int64_t pgid, int signal) override {
    m_->group_signals.emplace_back(pgid, signal);
    return ok_status();
  }
  Status signal_process(std::int64_t pid, int signal) override {
    m_->process_signals.emplace_back(pid, signal);
    return ok_status();
  }
  bool is_alive(std::int64_t pid, std::uint64_t) override { return m_->alive.contains(pid); }
  bool group_alive(std::int64_t pgid) override { return m_->alive.contains(pgid) || m_->live_groups.contains(pgid); }
  std::uint64_t start_ticks(std::int64_t pid) override { return static_cast<std::uint64_t>(pid) * 10; }
  CheckpointScan load_checkpoints() override { return m_->at_start; }
  Result<JobCheckpoint> load_checkpoint(JobId job) override {
    auto it = m_->checkpoints.find(job.value());
    if (it == m_->checkpoints.end()) return make_error(ErrorCode::kNotFound, "no checkpoint");
    return it->second;
  }
  Status save_checkpoint(const JobCheckpoint& c) override {
    m_->checkpoints[c.job.value()] = c;
    return ok_status();
  }
  Status save_step_checkpoint(const StepCheckpoint& c) override {
    m_->step_checkpoints[{c.job.value(), c.step}] = c;
    return ok_status();
  }
  Result<std::optional<ExitRecord>> read_exit_record(JobId job) override {
    auto it = m_->exit_records.find(job.value());
    return it == m_->exit_records.end() ? std::optional<ExitRecord>() : std::optional(it->second);
  }
  void forget_job(JobId job) override {
    m_->forgotten.push_back(job);
    m_->checkpoints.erase(job.value());
  }
  void forget_step(JobId job, std::int32_t step) override {
    m_->forgotten_steps.emplace_back(job, step);
    m_->step_checkpoints.erase({job.value(), step});
  }
  Status publish_lease(Time deadline) override {
    m_->lease = deadline;
    return ok_status();
  }
  const std::string& enforcement() const override { return enforcement_; }
  bool has_cgroups() const override { return m_->cgroups; }
  Result<CgroupAttach> prepare_cgroup(const CgroupLimits& limits) override {
    m_->cgroup_limits.push_back(limits);
    if (m_->cgroup_error) return make_error(ErrorCode::kIo, *m_->cgroup_error);
    return CgroupAttach{};
  }
  JobUsage cgroup_usage(JobId job) override {
    auto it = m_->usage.find(job.value());
    return it == m_->usage.end() ? JobUsage{} : it->second;
  }
  Status remove_cgroup(JobId job) override {
    m_->removed_cgroups.push_back(job);
    return ok_status();
  }
  void remove_stale_cgroups(const std::vector<JobId>&) override {}
  std::vector<DeviceNumber> gpu_devices(std::size_t index) const override {
    return index < m_->gpu_devices.size() ? m_->gpu_devices[index] : std::vector<DeviceNumber>{};
  }

 private:
  std::shared_ptr<Machine> m_;
  std::string enforcement_ = "affinity only: a fake host";
};

// A one-node step of `job` (its relay runs the command "sim").
inline wire::LaunchStep step_of(std::uint64_t job, std::int32_t step) {
  return wire::LaunchStep{JobId(job), step, "alice", 1001, 100, {"sim"}, {}, "/home/alice",
                          {"n1"}, {1}, 0, 1, "tcp://10.0.0.9:4000", "0123456789abcdef0123456789abcdef", false, "", "", "", {}};
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
  void launched(std::uint64_t job, std::int64_t pid, Time now, std::optional<std::int32_t> step = std::nullopt) {
    machine->finished.push_back({JobId(job), step, LaunchedProcess{static_cast<pid_t>(pid), static_cast<pid_t>(pid), {}}});
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
