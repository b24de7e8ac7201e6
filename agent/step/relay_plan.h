// What a node's step relay (fairway-step) is told by its agent, read from its environment,
// and what each of its tasks is told (SLURM_PROCID, SLURM_LOCALID, ... as srun sets them).
// Pure functions over plain data; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "shared/base/result.h"

namespace fairway::agent {

// The variables the agent sets for the relay (the key is removed before any task starts).
inline constexpr const char* kStepEnvAddress = "FAIRWAY_STEP_ADDRESS";
inline constexpr const char* kStepEnvKey = "FAIRWAY_STEP_KEY";
inline constexpr const char* kStepEnvId = "FAIRWAY_STEP_ID";
inline constexpr const char* kStepEnvNodeIndex = "FAIRWAY_STEP_NODE_INDEX";
inline constexpr const char* kStepEnvNodes = "FAIRWAY_STEP_NODES";          // comma list
inline constexpr const char* kStepEnvTasks = "FAIRWAY_STEP_TASKS_PER_NODE";  // comma list
inline constexpr const char* kStepEnvDir = "FAIRWAY_STEP_DIR";
inline constexpr const char* kStepEnvCpusPerTask = "FAIRWAY_STEP_CPUS_PER_TASK";
inline constexpr const char* kStepEnvPty = "FAIRWAY_STEP_PTY";  // "1": task 0 on a pty
// Seconds between SIGTERM and SIGKILL for the tasks when the client is gone (the agent's
// kill grace).
inline constexpr const char* kStepEnvGrace = "FAIRWAY_STEP_GRACE_S";

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

  std::int32_t first_rank() const;
  std::int32_t local_tasks() const { return tasks_per_node[static_cast<std::size_t>(node_index)]; }
  std::int32_t total_tasks() const;
};

// The plan from the relay's environment (`values`) and its command; errors name the variable.
Result<RelayPlan> relay_plan_from_values(const std::vector<std::pair<std::string, std::string>>& values,
                                         std::vector<std::string> command);

// The variables a task adds to the relay's environment (which holds the job's).
std::vector<std::pair<std::string, std::string>> task_environment(const RelayPlan& plan, std::int32_t local_id);

}  // namespace fairway::agent
