// How a job's or a step's tasks spread over its nodes, as Slurm's block distribution does:
// one rule for the agent's SLURM_TASKS_PER_NODE and the coordinator's step launches. Pure.
#pragma once

#include <cstdint>
#include <vector>

#include "shared/model/job_spec.h"

namespace fairway {

// Tasks on each node of `node_cores` (cores per node, in node order): with ntasks, each
// node takes as many as its cores fit (cpus_per_task each), leaving one for every later
// node; with ntasks_per_node, that many each; otherwise one each.
std::vector<std::int32_t> tasks_per_node(const TaskLayout& tasks,
                                         const std::vector<std::int32_t>& node_cores);

}  // namespace fairway
