// Where a job step's tasks run inside its job (srun -N/-n/-w/-x/--ntasks-per-node/-c in an
// allocation), as Slurm's step layout picks a subset of the job's nodes and cores. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shared/base/result.h"
#include "shared/model/job_spec.h"

namespace fairway {

// What srun asked for; 0 and empty: not given.
struct StepAsk {
  std::int32_t nodes = 0;
  std::int32_t ntasks = 0;
  std::int32_t ntasks_per_node = 0;
  std::int32_t cpus_per_task = 0;     // 0: the job's (1 when it gave none)
  std::vector<std::string> nodelist;  // -w: each must be a node of the job and of the step
  std::vector<std::string> exclude;   // -x: none of these
};

// One of the job's nodes as a step sees it: its name and the job's cores there.
struct JobNodeRoom {
  std::string name;
  std::int32_t cores = 0;
};

struct StepLayout {
  std::vector<std::size_t> nodes;            // indices into the job's nodes, in job order
  std::vector<std::int32_t> tasks_per_node;  // one entry per step node
  std::int32_t cpus_per_task = 1;
};

// The step's nodes and tasks, or an error that names the option that cannot be met
// (a node not in the job, more nodes, tasks or cores than the job holds).
Result<StepLayout> step_layout(const StepAsk& ask, const std::vector<JobNodeRoom>& job_nodes,
                               const TaskLayout& job_tasks);

}  // namespace fairway
