// What a job's cgroup must say, as file writes, for cgroup v1 and v2: its CPUs and their
// memory nodes, its memory limit (no swap), and the GPUs it may not open. Pure data in,
// data out: the OS layer (agent/os/job_cgroups) performs the writes. Thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shared/base/ids.h"

namespace fairway::agent {

// A character device, as the kernel numbers it (/dev/nvidia3 is 195:3).
struct DeviceNumber {
  std::uint32_t major = 0;
  std::uint32_t minor = 0;
  bool operator==(const DeviceNumber&) const = default;
};

struct CgroupLimits {
  JobId job;
  std::vector<std::int32_t> cpus;            // OS PU indices the job may run on
  std::vector<std::int32_t> mems;            // NUMA nodes it may allocate from
  std::optional<std::int64_t> memory_bytes;  // unset: no limit
  // The node's GPUs this job does not hold: opening them must fail, whatever
  // CUDA_VISIBLE_DEVICES says.
  std::vector<DeviceNumber> denied_devices;
  std::optional<std::int64_t> max_pids;  // processes and threads at once; unset: no limit
};

struct CgroupWrite {
  std::string controller;  // v1: the hierarchy ("cpuset", "memory", "devices"); v2: ""
  std::string file;
  std::string value;
  bool operator==(const CgroupWrite&) const = default;
};

// "0-3,8,10-11" (cpuset.cpus form) from any order; empty for none.
std::string cpu_list_text(std::vector<std::int32_t> ids);

// In the order they must happen: a v1 cpuset needs cpus and mems before a task may join.
std::vector<CgroupWrite> cgroup_v1_writes(const CgroupLimits& limits);
// v2: cpuset.cpus, cpuset.mems, memory.max, memory.swap.max. Device rules in v2 are an
// eBPF program, not a file (job_cgroups attaches it).
std::vector<CgroupWrite> cgroup_v2_writes(const CgroupLimits& limits);

// The job's directory name under the agent's subtree: "job_42".
std::string job_cgroup_name(JobId job);

}  // namespace fairway::agent
