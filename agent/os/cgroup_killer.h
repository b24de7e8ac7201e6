// Ending every process of a job's cgroup from the job's keeper, so that a process the job
// moved out of its process group (setsid, a daemonizing tool) ends with it: cgroup.kill on
// v2; freeze, SIGKILL, thaw on v1 with a freezer; else SIGKILL to each pid in cgroup.procs
// until it is empty. Async-signal-safe (the keeper is a forked copy of a threaded agent):
// the paths are made before fork, and nothing allocates.
#pragma once

#include <string>

namespace fairway::agent {

struct CgroupKillPlan {
  std::string kill_file;      // v2: DIR/cgroup.kill; empty on v1
  std::string procs_file;     // DIR/cgroup.procs of one hierarchy; empty: the job has no cgroup
  std::string freezer_state;  // v1: the job's freezer DIR/freezer.state; empty without one
  bool empty() const { return procs_file.empty(); }
};

// Sends `sig` to every process in the cgroup, once (a SIGTERM before the kill).
void signal_cgroup(const CgroupKillPlan& plan, int sig);

// SIGKILLs every process in the cgroup until none is left or `max_ms` passed; true when
// the cgroup is empty (or the job has none).
bool kill_cgroup(const CgroupKillPlan& plan, int max_ms);

}  // namespace fairway::agent
