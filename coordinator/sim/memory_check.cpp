#include "coordinator/sim/memory_check.h"

#include <algorithm>
#include <tuple>

namespace fairway::sim {

Status check_memory(const MemoryCheckInput& in) {
  std::unordered_map<std::uint64_t, const JobSpec*> spec_of;
  spec_of.reserve(in.workload.jobs.size());
  for (const WorkloadJob& j : in.workload.jobs) spec_of.emplace(j.spec.id.value(), &j.spec);

  // (time, +/- MiB, node, job): ends sort before starts at the same second.
  std::vector<std::tuple<Time, std::int64_t, std::uint32_t, std::uint64_t>> events;
  for (const ScheduleRecord& r : in.records) {
    const auto it = spec_of.find(r.id.value());
    if (it == spec_of.end()) continue;  // the main checker reports unknown jobs
    const JobSpec& s = *it->second;
    std::int64_t per_node = s.resources.memory_per_node_mb;
    std::int64_t per_cpu = s.resources.memory_per_cpu_mb;
    if (per_node == 0 && per_cpu == 0) {
      const std::string& p = s.partition.empty() ? in.default_partition : s.partition;
      if (auto d = in.default_mem_per_cpu.find(p); d != in.default_mem_per_cpu.end()) per_cpu = d->second;
    }
    if (per_node == 0 && per_cpu == 0) continue;
    auto cursor = r.allocation.cursor();
    for (NodeAllocation na; cursor.next(na);) {
      const std::int64_t mb = per_node > 0 ? per_node : per_cpu * std::ssize(na.cores);
      events.emplace_back(r.start, mb, na.node.value(), r.id.value());
      events.emplace_back(r.end, -mb, na.node.value(), r.id.value());
    }
  }
  std::sort(events.begin(), events.end(), [](const auto& a, const auto& b) {
    if (std::get<0>(a) != std::get<0>(b)) return std::get<0>(a) < std::get<0>(b);
    return std::get<1>(a) < std::get<1>(b);
  });
  std::vector<std::int64_t> held(in.nodes.size(), 0);
  for (const auto& [at, mb, node, job] : events) {
    if (node >= in.nodes.size()) continue;
    held[node] += mb;
    const std::int64_t has = in.nodes[node].memory_mb;
    if (mb > 0 && has > 0 && held[node] > has) {
      return make_error(ErrorCode::kFailedPrecondition,
                        "node " + in.nodes[node].name + " holds " + std::to_string(held[node]) +
                            " MiB at t=" + std::to_string(at.seconds()) + " when job " + std::to_string(job) +
                            " starts, more than its " + std::to_string(has) + " MiB");
    }
  }
  return ok_status();
}

}  // namespace fairway::sim
