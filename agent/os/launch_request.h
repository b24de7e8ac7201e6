// Everything the launcher needs to start one job on this node: the coordinator's LaunchJob
// plus what the agent adds (node list, GPU visible ids, PU binding). Plain data.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shared/base/ids.h"
#include "shared/base/result.h"
#include "shared/wire/messages.h"

namespace fairway::agent {

struct LaunchRequest {
  JobId job;
  std::string user;  // the job runs as this user; looked up with getpwnam_r
  // The uid/gid the coordinator authenticated for the submitter: `user` must be this uid
  // here, and the job gets this primary gid. Unset: `user`'s own (jobs from before).
  std::optional<std::uint32_t> uid;
  std::optional<std::uint32_t> gid;
  std::string account;    // SLURM_JOB_ACCOUNT
  std::string partition;  // SLURM_JOB_PARTITION
  std::string name;       // FAIRWAY_JOB_NAME, SLURM_JOB_NAME
  wire::JobProgram program;
  std::vector<std::int32_t> cores;  // node-local core numbers: FAIRWAY_CPUS
  std::vector<std::int32_t> gpus;   // node-local GPU numbers: FAIRWAY_GPUS
  // CUDA_VISIBLE_DEVICES, one per entry of `gpus`; empty: the node-local numbers.
  std::vector<std::string> gpu_visible_ids;
  // OS PU indices applied with sched_setaffinity; empty: no binding (--topology mode).
  std::vector<std::int32_t> bind_pus;
  std::string node_name;    // this node: SLURMD_NODENAME, %N in output names
  std::string nodelist;     // FAIRWAY_NODELIST, SLURM_JOB_NODELIST; required
  std::int32_t nnodes = 1;  // SLURM_NNODES
  // The user's task split and the cores of every node of the job, this one first (empty:
  // only this node's): SLURM_NTASKS, SLURM_TASKS_PER_NODE, SLURM_JOB_CPUS_PER_NODE.
  TaskLayout tasks;
  std::vector<std::int32_t> node_cores;
  std::string submit_dir;  // FAIRWAY_SUBMIT_DIR; empty: the working dir
  // A requeued job's later runs append to its output files instead of truncating them.
  bool append_output = false;
  // Earlier runs of this job (SLURM_RESTART_COUNT); a later run first writes a line that
  // marks the new attempt into its appended output.
  std::int32_t restarts = 0;
  // The job's checkpoint without its pid and pgid (format_checkpoint_without_process),
  // which the job's keeper completes and writes; empty: the launcher writes none.
  std::string checkpoint_text;
  ArrayTaskFacts array;  // a task of a job array: SLURM_ARRAY_* and %A/%a
  // A step of the job (its relay, fairway-step): the job's own exit record, checkpoint and
  // script are left alone; its keeper records the step's exit beside them.
  std::optional<std::int32_t> step;
};

struct LauncherConfig {
  std::string spool_dir;         // job scripts go here; must exist and be traversable
  bool allow_root_jobs = false;  // when false, a job whose user has uid 0 is refused
  // A keeper whose agent stopped renewing the coordinator lease sends SIGTERM, waits
  // this long, then SIGKILL ([agent] kill_grace).
  Duration fence_grace = Duration::seconds(30);
};

// The request for a coordinator's LaunchJob on this node; the agent then adds what only
// it knows (GPU visible ids, PU binding, the multi-node list in hostlist form).
LaunchRequest launch_request_from(const wire::LaunchJob& launch, std::string node_name);

// What must hold before anything forks: a program to run, no NUL in what reaches a syscall,
// a node list that agrees with its counts, PUs inside a cpu_set_t. kInvalidArgument names
// the job, the field and the value.
Status validate_launch_request(const LaunchRequest& r);

}  // namespace fairway::agent
