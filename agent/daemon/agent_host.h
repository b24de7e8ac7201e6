// What AgentService asks of the machine it runs on: launches (off its loop), signals,
// reaping, liveness, and the spool's checkpoints, exit records and lease file. SystemHost is
// the real one; tests drive the service through a fake, with no process and no file.
// Not thread-safe: the agent's loop thread owns it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "agent/os/child_reaper.h"
#include "agent/os/exit_record.h"
#include "agent/os/job_cgroups.h"
#include "agent/os/launch_checkpoint.h"
#include "agent/os/launch_request.h"
#include "agent/os/launch_workers.h"
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
};

// The real machine: processes launched by `threads` worker threads through a
// ProcessLauncher, files in `config.spool_dir`.
Result<std::unique_ptr<AgentHost>> make_system_host(const LauncherConfig& config, int threads);

}  // namespace fairway::agent
