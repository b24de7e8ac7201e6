// fairway-sim --check's memory rule, from the schedule alone (independent of the core): at
// no moment do the runs on a node hold more memory than the node declares.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "coordinator/sim/schedule_record.h"
#include "coordinator/sim/workload.h"
#include "shared/base/result.h"
#include "shared/model/topology.h"

namespace fairway::sim {

struct MemoryCheckInput {
  const std::vector<NodeTopology>& nodes;
  const Workload& workload;
  const std::vector<ScheduleRecord>& records;
  // Per partition name: default_mem_per_cpu_mb for jobs that ask no memory; a job naming
  // no partition uses `default_partition`'s.
  const std::unordered_map<std::string, std::int64_t>& default_mem_per_cpu;
  const std::string& default_partition;
};

// Ok, or the first overcommitted node, naming the node, the moment, what its runs hold
// and what it has. A run holds the job's --mem on each of its nodes, or --mem-per-cpu
// times its cores there (as sbatch counts them). Nodes declaring no memory are skipped.
Status check_memory(const MemoryCheckInput& in);

}  // namespace fairway::sim
