// What AgentService asks of the machine it runs on: launches (off its loop), signals,
// reaping, liveness, the jobs' cgroups and the GPUs' device nodes, and the spool's
// checkpoints, exit records and lease file. SystemHost is the real one; tests drive the
// service through a fake, with no process, no file and no cgroup.
// Not thread-safe: the agent's loop thread owns it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/os/child_reaper.h"
#include "agent/os/exit_record.h"
#include "agent/os/job_cgroups.h"
#include "agent/os/launch_checkpoint.h"
#include "agent/os/launch_request.h"
#include "agent/os/launch_workers.h"
#include "agent/os/topology_discovery.h"
#include "shared/base/result.h"

namespace fairway::agent {

class AgentHost {
 public:
  virtual ~AgentHost() = default;

  // Starts `request` off the loop (with its cgroups); its result comes from take_launched.
  virtual void launch(LaunchRequest request, CgroupAttach attach) = 0;
  // Launches finished since the last call, in the order they finished.
  virtual std::vector<LaunchWorkers::Done> take_launched() = 0;
  // Readable while take_launched has something (for the loop's poller); -1: none.
  virtual int launch_fd() const = 0;
  // Every child that ended since the last call.
  virtual std::vector<ReapedChild> reap() = 0;
  // The whole process group (a group already gone is not an error), or one process.
  virtual Status signal_group(std::int64_t pgid, int signal) = 0;
  virtual Status signal_process(std::int64_t pid, int signal) = 0;
  // Whether any process is left in the group.
  virtual bool group_alive(std::int64_t pgid) = 0;
  // Whether `pid` still runs and is the process that started at `start_ticks` (0: any).
  virtual bool is_alive(std::int64_t pid, std::uint64_t start_ticks) = 0;
  // When `pid` started (its /proc start ticks); 0 when unknown.
  virtual std::uint64_t start_ticks(std::int64_t pid) = 0;

  virtual CheckpointScan load_checkpoints() = 0;
  virtual Result<JobCheckpoint> load_checkpoint(JobId job) = 0;
  virtual Status save_checkpoint(const JobCheckpoint& checkpoint) = 0;
  virtual Status save_step_checkpoint(const StepCheckpoint& checkpoint) = 0;
  virtual Result<std::optional<ExitRecord>> read_exit_record(JobId job) = 0;
  // The job's checkpoint, exit record and spooled script are gone once its end is
  // acknowledged; a step's checkpoint and exit record once the step ended.
  virtual void forget_job(JobId job) = 0;
  virtual void forget_step(JobId job, std::int32_t step) = 0;
  // The lease the jobs' keepers see (coordinator_lease_file.h).
  virtual Status publish_lease(Time deadline) = 0;

  // How jobs are held to their cores, memory and GPUs here (JobCgroups::description), and
  // whether by cgroups at all (false: affinity only).
  virtual const std::string& enforcement() const = 0;
  virtual bool has_cgroups() const = 0;
  // The job's cgroup (made, or found again for a step or a re-adopted job) with `limits`.
  virtual Result<CgroupAttach> prepare_cgroup(const CgroupLimits& limits) = 0;
  // What the job's cgroup counted; then it goes (with anything left in it).
  virtual JobUsage cgroup_usage(JobId job) = 0;
  virtual Status remove_cgroup(JobId job) = 0;
  // Job cgroups of no job in `keep` and with no process left: removed at start.
  virtual void remove_stale_cgroups(const std::vector<JobId>& keep) = 0;
  // The character devices of the node's GPU `index` (DiscoveredNode.gpus), which a job
  // that does not hold it is denied; empty when none is known.
  virtual std::vector<DeviceNumber> gpu_devices(std::size_t index) const = 0;
};

// The real machine: processes launched by `threads` worker threads through a
// ProcessLauncher, files in `config.spool_dir`, job cgroups as `cgroups` asks (an error
// when it names a version that is not there), and the device nodes of `gpus`.
Result<std::unique_ptr<AgentHost>> make_system_host(const LauncherConfig& config, int threads,
                                                    const CgroupOptions& cgroups,
                                                    const std::vector<GpuIdentity>& gpus);

}  // namespace fairway::agent
