#include "agent/core/cgroup_plan.h"

#include <algorithm>

namespace fairway::agent {

std::string cpu_list_text(std::vector<std::int32_t> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::string out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(ids[i]);
    if (j > i) out += '-' + std::to_string(ids[j]);
    i = j + 1;
  }
  return out;
}

std::vector<CgroupWrite> cgroup_v1_writes(const CgroupLimits& l) {
  std::vector<CgroupWrite> w;
  w.push_back({"cpuset", "cpuset.mems", cpu_list_text(l.mems)});
  w.push_back({"cpuset", "cpuset.cpus", cpu_list_text(l.cpus)});
  if (l.memory_bytes) {
    const std::string bytes = std::to_string(*l.memory_bytes);
    w.push_back({"memory", "memory.limit_in_bytes", bytes});
    // memsw exists only with swap accounting; job_cgroups skips it when absent. Equal to
    // the limit: no swap on top.
    w.push_back({"memory", "memory.memsw.limit_in_bytes", bytes});
  }
  if (l.max_pids) w.push_back({"pids", "pids.max", std::to_string(*l.max_pids)});
  for (const DeviceNumber& d : l.denied_devices) {
    w.push_back(
        {"devices", "devices.deny", "c " + std::to_string(d.major) + ":" + std::to_string(d.minor) + " rwm"});
  }
  return w;
}

std::vector<CgroupWrite> cgroup_v2_writes(const CgroupLimits& l) {
  std::vector<CgroupWrite> w;
  w.push_back({"", "cpuset.cpus", cpu_list_text(l.cpus)});
  w.push_back({"", "cpuset.mems", cpu_list_text(l.mems)});
  if (l.memory_bytes) {
    w.push_back({"", "memory.max", std::to_string(*l.memory_bytes)});
    w.push_back({"", "memory.swap.max", "0"});
  }
  if (l.max_pids) w.push_back({"", "pids.max", std::to_string(*l.max_pids)});
  return w;
}

std::string job_cgroup_name(JobId job) {
  return "job_" + std::to_string(job.value());
}

}  // namespace fairway::agent
