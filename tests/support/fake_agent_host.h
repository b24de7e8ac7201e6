// The fake AgentHost: the machine an AgentService runs on in tests, with no process, no
// file and no cgroup; it records what the service asks and the test plays the machine.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "agent/daemon/agent_host.h"

namespace fairway::agent::testing {

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
  bool group_alive(std::int64_t pgid) override {
    return m_->alive.contains(pgid) || m_->live_groups.contains(pgid);
  }
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

}  // namespace fairway::agent::testing
