// Which partition a job goes to when it names one, none, or is interactive, and the
// memory it holds there when it asks none: admission's rules, also used by a restart.
#include "coordinator/core/scheduler.h"

namespace fairway {

const PartitionConfig* Scheduler::partition_for(const JobSpec& spec) const {
  if (spec.partition.empty()) {
    const PartitionConfig* pc = nullptr;
    if (spec.interactive) {
      for (const auto& p : config_.partitions) {
        if (p.default_for_interactive) pc = &p;
      }
    }
    if (pc == nullptr) pc = config_.default_partition();
    return pc != nullptr ? pc : &config_.partitions.front();
  }
  for (const auto& p : config_.partitions) {
    if (p.name == spec.partition) return &p;
  }
  return nullptr;
}

ResourceRequest Scheduler::with_default_memory(const JobSpec& spec) const {
  ResourceRequest r = spec.resources;
  const PartitionConfig* pc = partition_for(spec);
  if (pc != nullptr && r.memory_per_node_mb == 0 && r.memory_per_cpu_mb == 0) {
    r.memory_per_cpu_mb = pc->default_mem_per_cpu_mb;
  }
  return r;
}

}  // namespace fairway
