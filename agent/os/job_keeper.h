// The job's keeper: a small root process between the agent and the job. It waits for the
// job, writes its exit status to the spool (so an agent restarted meanwhile still learns
// it), stops the job when the coordinator lease runs out with no agent to renew it, and
// then ends the way the job ended; with cgroups, nothing of the job outlives it. Runs only in a freshly
// forked child: syscalls only.
#pragma once

#include <cstdint>
#include <string>

#include "agent/os/cgroup_killer.h"

namespace fairway::agent {

struct KeeperPlan {
  std::string exit_record_path;     // spool/job-N.exit, written when the job ends
  std::string exit_record_tmp;      // written first, then renamed: never read half-written
  std::string lease_path;           // spool/coordinator-lease (see coordinator_lease_file.h)
  std::int64_t fence_grace_s = 30;  // SIGTERM, this long, SIGKILL, once the lease is out
  // The job's checkpoint (launch_checkpoint.h) less its pid and pgid lines, which the
  // keeper adds: written by the keeper as soon as the job runs, so an agent killed in
  // the middle of a launch still finds the job when it restarts. Empty path: none.
  std::string checkpoint_path;
  std::string checkpoint_tmp;
  std::string checkpoint_text;
  // The job's cgroup: fencing ends every process in it, not only the job's process group
  // (a setsid child leaves that group). Empty: no cgroups, the group is all it can reach.
  CgroupKillPlan cgroup;
  // A batch job's keeper also ends what is left in the cgroup when the job's process
  // ends (a step's keeper must not: the job's other processes share the cgroup).
  bool end_kills_cgroup = false;
};

// The job's side of the fork: set up and exec, reporting failures on `report_fd`. Called
// in the job's process with its own process group already made; never returns.
using StartJobFn = void (*)(const void* context, int report_fd);

// In the keeper (a child of the agent, just forked): makes its own session, forks the job
// (which gets a process group of its own, the one the agent signals), sends the job's pid
// on `pid_fd` (or -errno if it could not fork), and keeps it. Ends as the job ended: the
// same exit code, or killed by the same signal. Never returns.
[[noreturn]] void run_keeper(const KeeperPlan& plan, int pid_fd, int report_fd, StartJobFn start_job,
                             const void* context);

}  // namespace fairway::agent
