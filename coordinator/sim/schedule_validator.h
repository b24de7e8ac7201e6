// An independent check of a produced schedule against the workload and the machine. It
// shares no logic with the scheduling core, so a core bug cannot hide itself here.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "coordinator/sim/schedule_record.h"
#include "coordinator/sim/workload.h"
#include "shared/base/result.h"
#include "shared/config/config.h"
#include "shared/model/topology.h"

namespace fairway::sim {

// How much more than it asked for a partition may give a job, as the site bills it.
enum class Rounding {
  kExact,                   // exactly the cores asked for
  kWholeSockets,            // the cores asked for, rounded up to whole sockets of each node used
  kWholeNodes,              // whole nodes
  kWholeNodesAboveOneNode,  // exact up to one node's cores, whole nodes above (Kebnekaise)
};

struct ValidationInput {
  const std::vector<NodeTopology>* nodes = nullptr;      // the machine (node index = position)
  const Workload* workload = nullptr;                    // what was submitted
  const std::vector<ScheduleRecord>* records = nullptr;  // what ran
  std::vector<JobId> rejected;      // jobs the scheduler refused at submission (never run)
  bool check_reservations = false;  // EASY/conservative: reserved jobs start on time
  // Per partition name; a partition not listed, and a job naming none (the default
  // partition's name is in `default_partition`), is kExact.
  std::unordered_map<std::string, Rounding> rounding;
  std::string default_partition;
  // Per partition name: its priority_tier, and whether its jobs may be preempted. A run
  // cut for another job (preempted_by) must have been cut for a higher tier.
  std::unordered_map<std::string, std::pair<std::int32_t, bool>> preemption;
  // Promptness of owner jobs, checked only where nothing else may hold a job back (no
  // limits, caps, reservations, GPUs or rounding; see take_partition_rounding): an owner
  // job arriving with no rival of its tier waiting, while free cores plus the cores of
  // preemptable lower-tier jobs on its partition's nodes cover it, starts within the
  // longest preempt_grace of those partitions.
  bool check_owner_waits = false;
  struct PreemptionTerms {
    Duration exempt;
    Duration grace;
    std::vector<std::string> nodes;  // empty: every node
  };
  std::unordered_map<std::string, PreemptionTerms> preemption_terms;
  // Per partition name: default_mem_per_cpu_mb (memory_check.h).
  std::unordered_map<std::string, std::int64_t> default_mem_per_cpu;
};

// Fills in.rounding, in.default_partition and in.preemption from the partitions'
// allocation_unit, whole_nodes_above_node_size, priority_tier and preempt.
void take_partition_rounding(const Config& config, ValidationInput& in);

// Ok, or an error naming the first violation found (job id, node, core, times).
Status validate_schedule(const ValidationInput& in);

}  // namespace fairway::sim
