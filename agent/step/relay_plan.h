// What a node's step relay (fairway-step) is told by its agent, read from its environment,
// and what each of its tasks is told (SLURM_PROCID, SLURM_LOCALID, ... as srun sets them).
// Pure functions over plain data; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "shared/base/result.h"
#include "shared/model/cpu_bind.h"

namespace fairway::agent {

// The variables the agent sets for the relay (the key is removed before any task starts).
inline constexpr const char* kStepEnvAddress = "FAIRWAY_STEP_ADDRESS";
inline constexpr const char* kStepEnvKey = "FAIRWAY_STEP_KEY";
inline constexpr const char* kStepEnvId = "FAIRWAY_STEP_ID";
inline constexpr const char* kStepEnvNodeIndex = "FAIRWAY_STEP_NODE_INDEX";
inline constexpr const char* kStepEnvNodes = "FAIRWAY_STEP_NODES";           // comma list
inline constexpr const char* kStepEnvTasks = "FAIRWAY_STEP_TASKS_PER_NODE";  // comma list
inline constexpr const char* kStepEnvDir = "FAIRWAY_STEP_DIR";
inline constexpr const char* kStepEnvCpusPerTask = "FAIRWAY_STEP_CPUS_PER_TASK";
inline constexpr const char* kStepEnvPty = "FAIRWAY_STEP_PTY";  // "1": task 0 on a pty
// srun --cpu-bind and --distribution as given (absent: cores, block).
inline constexpr const char* kStepEnvCpuBind = "FAIRWAY_STEP_CPU_BIND";
inline constexpr const char* kStepEnvDistribution = "FAIRWAY_STEP_DISTRIBUTION";
// The job's cores on this node, each as its PUs: "0,28;1,29" (absent: the agent binds
// nothing, and the relay's own CPUs count one core each).
inline constexpr const char* kStepEnvCorePus = "FAIRWAY_STEP_CORE_PUS";
// Seconds between SIGTERM and SIGKILL for the tasks when the client is gone (the agent's
// kill grace).
inline constexpr const char* kStepEnvGrace = "FAIRWAY_STEP_GRACE_S";
// The job the step belongs to (its id).
inline constexpr const char* kStepEnvJob = "FAIRWAY_STEP_JOB";
// srun --mpi: "pmi2" or "pmix" serves PMI to the tasks (absent or "none": no PMI).
inline constexpr const char* kStepEnvMpi = "FAIRWAY_STEP_MPI";

struct RelayPlan {
  std::string address;
  std::string key;
  std::int32_t step = 0;
  std::int32_t node_index = 0;
  std::vector<std::string> nodes;
  std::vector<std::int32_t> tasks_per_node;
  std::string working_dir;
  std::int32_t cpus_per_task = 1;
  bool pty = false;
  std::int32_t grace_s = 30;
  std::vector<std::string> command;
  CpuBind cpu_bind;
  std::string cpu_bind_text;  // as srun was given it (SLURM_CPU_BIND_* come from the result)
  bool cyclic = false;
  std::vector<std::vector<int>> core_pus;  // empty: unknown
  std::string mpi;                         // srun --mpi: "pmi2", "pmix", or empty (none)
  std::string job_id;                      // the job the step is in ("0" from an agent that does not say)

  std::int32_t first_rank() const;
  // The global rank of local task `local` (block: first_rank() + local; cyclic: round the nodes).
  std::int32_t rank_of(std::int32_t local) const;
  std::int32_t local_tasks() const { return tasks_per_node[static_cast<std::size_t>(node_index)]; }
  std::int32_t total_tasks() const;
  // The node index of every global rank of the step.
  std::vector<std::int32_t> node_of_rank() const;
};

// The plan from the relay's environment (`values`) and its command; errors name the variable.
Result<RelayPlan> relay_plan_from_values(const std::vector<std::pair<std::string, std::string>>& values,
                                         std::vector<std::string> command);

// The variables a task adds to the relay's environment (which holds the job's).
std::vector<std::pair<std::string, std::string>> task_environment(const RelayPlan& plan,
                                                                  std::int32_t local_id);

// "0,28;1,29" -> {{0,28},{1,29}}; errors name the variable.
Result<std::vector<std::vector<int>>> parse_core_pus(const std::string& text);

}  // namespace fairway::agent
