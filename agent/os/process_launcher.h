// Starts a job's processes: fork its keeper (job_keeper.h), which forks the job; the job
// makes its own process group, drops to the job's user, chdirs, redirects output, binds
// to PUs and execs. Child-side failures come back as a Result error.
// Thread-safe in the sense that launch() keeps no state; the agent calls it from its loop.
#pragma once

#include <sys/types.h>
#include <string>

#include "agent/os/job_cgroups.h"
#include "agent/os/launch_request.h"
#include "shared/base/result.h"

namespace fairway::agent {

struct LaunchedProcess {
  pid_t pid = 0;            // the job's keeper: the agent's child, which ends as the job ends
  pid_t pgid = 0;           // the job's process group (its first process's pid): what to signal
  std::string script_path;  // the spool copy of the batch script; empty for argv jobs
};

class ProcessLauncher {
 public:
  explicit ProcessLauncher(LauncherConfig config);

  // Returns once the job's program has been exec'd (or the child failed before exec, in
  // which case the child is reaped and the error names the step and path: "chdir to
  // working_dir '/x'", "open stdout file '/x/o'", "setuid(1000) for user 'bob'", "exec
  // '/bin/sh'", ...). The pid is the caller's to reap (ChildReaper) and supervise.
  // With `cgroup`, the job's process joins those cgroups before it drops privileges.
  Result<LaunchedProcess> launch(const LaunchRequest& request, const CgroupAttach* cgroup = nullptr) const;

  // Removes what launch() left in the spool dir for the job (its script).
  Status clean_up(JobId job) const;

  const LauncherConfig& config() const { return config_; }

 private:
  LauncherConfig config_;
};

}  // namespace fairway::agent
