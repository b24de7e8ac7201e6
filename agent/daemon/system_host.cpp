// The AgentHost of a real node: ProcessLauncher on LaunchWorkers threads, waitpid, kill,
// /proc, the jobs' cgroups, the GPUs' /dev nodes, and the spool's files.
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>

#include "agent/daemon/agent_host.h"
#include "agent/os/coordinator_lease_file.h"
#include "agent/os/gpu_discovery.h"
#include "agent/os/proc_stat.h"
#include "agent/os/process_launcher.h"
#include "shared/base/try.h"

namespace fairway::agent {
namespace {

class SystemHost final : public AgentHost {
 public:
  explicit SystemHost(const LauncherConfig& config)
      : config_(config), launcher_(config), checkpoints_(config.spool_dir), lease_file_(config.spool_dir) {}

  Status start(int threads, const CgroupOptions& cgroups, const std::vector<GpuIdentity>& gpus) {
    FAIRWAY_TRY_ASSIGN(workers, LaunchWorkers::start(launcher_, threads));
    workers_ = std::move(workers);
    FAIRWAY_TRY_ASSIGN(opened, JobCgroups::open(cgroups));
    cgroups_ = std::move(opened);
    for (const GpuIdentity& g : gpus) gpu_devices_.push_back(gpu_device_numbers(g));
    return ok_status();
  }

  void launch(LaunchRequest request, CgroupAttach attach) override {
    workers_->submit(std::move(request), std::move(attach));
  }
  std::vector<LaunchWorkers::Done> take_launched() override { return workers_->take_done(); }
  int launch_fd() const override { return workers_->fd(); }

  std::vector<ReapedChild> reap() override {
    auto reaped = ChildReaper().reap();
    return reaped ? std::move(*reaped) : std::vector<ReapedChild>{};
  }
  Status signal_group(std::int64_t pgid, int signal) override {
    return ChildReaper::signal_group(static_cast<pid_t>(pgid), signal);
  }
  Status signal_process(std::int64_t pid, int signal) override {
    if (::kill(static_cast<pid_t>(pid), signal) != 0 && errno != ESRCH) {
      return make_error(ErrorCode::kIo, "kill(" + std::to_string(pid) + "): " + std::strerror(errno));
    }
    return ok_status();
  }
  bool group_alive(std::int64_t pgid) override {
    return pgid > 0 && (::kill(-static_cast<pid_t>(pgid), 0) == 0 || errno == EPERM);
  }
  bool is_alive(std::int64_t pid, std::uint64_t start_ticks) override {
    return process_is_alive(static_cast<pid_t>(pid), start_ticks);
  }
  std::uint64_t start_ticks(std::int64_t pid) override {
    auto stat = read_proc_stat(static_cast<pid_t>(pid));
    return stat ? stat->start_ticks : 0;
  }

  CheckpointScan load_checkpoints() override { return checkpoints_.load_all(); }
  Result<JobCheckpoint> load_checkpoint(JobId job) override {
    std::ifstream in(checkpoints_.path_of(job));
    std::stringstream text;
    text << in.rdbuf();
    return parse_checkpoint(text.str());
  }
  Status save_checkpoint(const JobCheckpoint& checkpoint) override { return checkpoints_.save(checkpoint); }
  Status save_step_checkpoint(const StepCheckpoint& checkpoint) override {
    return checkpoints_.save_step(checkpoint);
  }
  Result<std::optional<ExitRecord>> read_exit_record(JobId job) override {
    return agent::read_exit_record(config_.spool_dir, job);
  }
  void forget_job(JobId job) override {
    (void)checkpoints_.remove(job);
    (void)remove_exit_record(config_.spool_dir, job);
    (void)launcher_.clean_up(job);
  }
  void forget_step(JobId job, std::int32_t step) override {
    (void)checkpoints_.remove_step(job, step);
    ::unlink((exit_record_path(config_.spool_dir, job) + ".step-" + std::to_string(step)).c_str());
  }
  Status publish_lease(Time deadline) override { return lease_file_.publish(deadline); }

  const std::string& enforcement() const override { return cgroups_->description(); }
  bool has_cgroups() const override { return cgroups_->mode() != CgroupMode::kNone; }
  Result<CgroupAttach> prepare_cgroup(const CgroupLimits& limits) override {
    return cgroups_->prepare(limits);
  }
  JobUsage cgroup_usage(JobId job) override { return cgroups_->usage(job); }
  Status remove_cgroup(JobId job) override { return cgroups_->remove(job); }
  void remove_stale_cgroups(const std::vector<JobId>& keep) override { cgroups_->remove_stale(keep); }
  std::vector<DeviceNumber> gpu_devices(std::size_t index) const override {
    return index < gpu_devices_.size() ? gpu_devices_[index] : std::vector<DeviceNumber>{};
  }

 private:
  LauncherConfig config_;
  ProcessLauncher launcher_;
  std::unique_ptr<LaunchWorkers> workers_;
  LaunchCheckpoint checkpoints_;
  CoordinatorLeaseFile lease_file_;
  std::unique_ptr<JobCgroups> cgroups_;
  std::vector<std::vector<DeviceNumber>> gpu_devices_;  // per node-local GPU: its /dev nodes
};

}  // namespace

Result<std::unique_ptr<AgentHost>> make_system_host(const LauncherConfig& config, int threads,
                                                    const CgroupOptions& cgroups,
                                                    const std::vector<GpuIdentity>& gpus) {
  auto host = std::make_unique<SystemHost>(config);
  FAIRWAY_TRY(host->start(threads, cgroups, gpus));
  return std::unique_ptr<AgentHost>(std::move(host));
}

}  // namespace fairway::agent
