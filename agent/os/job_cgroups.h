// Each job's own cgroup: CPUs, memory and device access enforced by the kernel, so a job
// that widens its own affinity or ignores CUDA_VISIBLE_DEVICES still gets only what it
// was given; peak memory, CPU time and OOM kills read back when it ends. cgroup v2 (one
// hierarchy, devices by an eBPF program) or v1 (cpuset, memory, devices, cpuacct
// hierarchies, and freezer when present, so that the keeper can freeze the job to kill it).
// Not thread-safe: owned and used by the agent's event loop.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/core/cgroup_plan.h"
#include "agent/os/cgroup_killer.h"
#include "shared/base/ids.h"
#include "shared/base/result.h"

namespace fairway::agent {

enum class CgroupMode : std::uint8_t { kNone, kV1, kV2 };

struct CgroupOptions {
  std::string root = "/sys/fs/cgroup";
  // "auto": v2 when its cpuset and memory controllers can be had, else v1, else none.
  std::string mode = "auto";  // "auto", "v2", "v1", "off"
  // The subtree this agent owns under each v1 hierarchy ("fairway/<node>": agents of
  // several nodes on one host never touch each other's jobs). v2: its first part under
  // the mount when the agent's own cgroup is the root (not run by systemd); under systemd
  // with Delegate=yes, the agent's own cgroup.
  std::string subtree = "fairway";
};

// What the kernel counted for a job's cgroup.
struct JobUsage {
  std::optional<std::int64_t> peak_memory_bytes;
  std::optional<std::int64_t> cpu_time_ms;
  std::int64_t oom_kills = 0;
};

// Open descriptors of the cgroup.procs files a job's process writes its pid into before
// exec (one per v1 hierarchy; one for v2). Closed by the destructor.
class CgroupAttach {
 public:
  CgroupAttach() = default;
  CgroupAttach(const CgroupAttach&) = delete;
  CgroupAttach& operator=(const CgroupAttach&) = delete;
  CgroupAttach(CgroupAttach&& o) noexcept;
  CgroupAttach& operator=(CgroupAttach&& o) noexcept;
  ~CgroupAttach();
  void add(int fd) { fds_.push_back(fd); }
  const std::vector<int>& fds() const { return fds_; }
  // How the job's keeper ends everything in the job's cgroup (empty: no cgroup).
  CgroupKillPlan kill_plan;

 private:
  std::vector<int> fds_;
};

class JobCgroups {
 public:
  // Detects what this node offers; kNone (with why) is not an error unless `options.mode`
  // names a version that is not there.
  static Result<std::unique_ptr<JobCgroups>> open(const CgroupOptions& options);

  CgroupMode mode() const { return mode_; }
  // One line for logs and `fairway nodes`: "cgroup v1 (cpuset memory devices cpuacct)",
  // or "affinity only: no writable cgroup cpuset/memory hierarchy under /sys/fs/cgroup".
  const std::string& description() const { return description_; }

  // Creates (or, for a job re-adopted after an agent restart, finds) the job's cgroup
  // with `limits`, and opens its cgroup.procs files. kNone: an empty attach.
  Result<CgroupAttach> prepare(const CgroupLimits& limits);
  // Whether the job's cgroup exists (a re-adopting agent looks for it).
  bool exists(JobId job) const;
  JobUsage usage(JobId job) const;
  // Kills anything left in the job's cgroup and removes it; an empty or absent one is
  // fine. Call once the job's processes are gone.
  Status remove(JobId job);
  // Job cgroups with no process left and no job in `keep`: removed at start.
  void remove_stale(const std::vector<JobId>& keep);

 private:
  JobCgroups() = default;
  std::string job_dir(const std::string& base, JobId job) const;
  CgroupMode mode_ = CgroupMode::kNone;
  std::string description_;
  // v1: controller -> its subtree dir (/sys/fs/cgroup/cpuset/fairway); v2: {"", dir}.
  std::vector<std::pair<std::string, std::string>> bases_;
  bool memsw_ = false;  // v1 swap accounting present
};

// The eBPF program (cgroup v2 device control) that denies `denied` character devices and
// allows every other access; a file descriptor, or an error naming what the kernel said.
Result<int> load_device_deny_program(const std::vector<DeviceNumber>& denied);
// Attaches such a program to the cgroup directory `dir` (alongside any its ancestors have).
Status attach_device_program(const std::string& dir, int prog_fd);

}  // namespace fairway::agent
