#include "agent/os/launch_environment.h"
#include "shared/base/count_list.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace fairway::agent {
namespace {

constexpr std::string_view kDefaultPath = "/usr/local/bin:/usr/bin:/bin";

// Keeps first-appearance order while letting a later set() replace the value.
class OrderedEnv {
 public:
  void set(const std::string& name, std::string value) {
    const auto [it, inserted] = index_.emplace(name, entries_.size());
    if (inserted) {
      entries_.emplace_back(name, std::move(value));
    } else {
      entries_[it->second].second = std::move(value);
    }
  }
  void set_default(const std::string& name, std::string value) {
    if (!index_.contains(name)) set(name, std::move(value));
  }
  std::vector<std::string> to_strings() const {
    std::vector<std::string> out;
    out.reserve(entries_.size());
    for (const auto& [name, value] : entries_) out.push_back(name + "=" + value);
    return out;
  }

 private:
  std::vector<std::pair<std::string, std::string>> entries_;
  std::map<std::string, std::size_t> index_;
};

Status check_variable(const std::string& name, const std::string& value) {
  if (name.empty()) return invalid_argument("env: a variable has an empty name");
  if (name.find('=') != std::string::npos) {
    return invalid_argument("env: variable name '" + name + "' contains '='");
  }
  if (name.find('\0') != std::string::npos || value.find('\0') != std::string::npos) {
    return invalid_argument("env: variable '" + name + "' contains a NUL byte");
  }
  return ok_status();
}

}  // namespace

std::string comma_list(const std::vector<std::int32_t>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(values[i]);
  }
  return out;
}

Result<OutputPaths> resolve_output_paths(const LaunchRequest& request) {
  const std::string& dir = request.program.working_dir;
  if (dir.empty() || dir.front() != '/') {
    return invalid_argument("job " + std::to_string(request.job.value()) + ": working_dir '" + dir +
                            "' is not an absolute path");
  }
  OutputPaths paths;
  const OutputNameFields fields{request.job,
                                request.user,
                                request.name,
                                request.node_name.empty() ? request.nodelist : request.node_name,
                                request.array.array_job,
                                request.array.task};
  const std::string default_stdout = expand_output_path(kDefaultOutputPattern, fields, dir, "");
  paths.stdout_path = expand_output_path(request.program.stdout_path, fields, dir, default_stdout);
  paths.stderr_path = expand_output_path(request.program.stderr_path, fields, dir, paths.stdout_path);
  return paths;
}

Result<std::vector<std::string>> build_job_environment(const LaunchRequest& request, const JobUser& user) {
  OrderedEnv env;
  // A step's request carries no job name, partition or submit dir: its tasks keep the
  // batch script's (srun's environment), as Slurm's step tasks do.
  const auto set_job_fact = [&](const std::string& name, const std::string& value) {
    if (request.step && value.empty()) {
      env.set_default(name, value);
    } else {
      env.set(name, value);
    }
  };
  for (const auto& [name, value] : request.program.env) {
    if (auto ok = check_variable(name, value); !ok) {
      return std::unexpected(ok.error().with_context("job " + std::to_string(request.job.value())));
    }
    env.set(name, value);
  }
  env.set_default("PATH", std::string(kDefaultPath));
  env.set_default("HOME", user.home);
  env.set_default("USER", user.name);
  env.set_default("LOGNAME", user.name);
  // As slurmd sets them unless the job brings its own: the node's name and a temp dir.
  if (!request.node_name.empty()) env.set_default("HOSTNAME", request.node_name);
  env.set_default("TMPDIR", "/tmp");

  const std::string id = std::to_string(request.job.value());
  const std::string cpus = comma_list(request.cores);
  // Where sbatch ran (it passes SLURM_SUBMIT_DIR on, as it does SLURM_SUBMIT_HOST): not
  // the -D directory the job works in (the D_sub conformance row).
  std::string submit_dir = request.submit_dir;
  if (submit_dir.empty() && !request.step) {
    for (const auto& [name, value] : request.program.env) {
      if (name == "SLURM_SUBMIT_DIR" && value.starts_with('/')) submit_dir = value;
    }
  }
  if (submit_dir.empty()) submit_dir = request.program.working_dir;
  std::string visible;
  if (request.gpu_visible_ids.empty()) {
    visible = comma_list(request.gpus);
  } else {
    for (std::size_t i = 0; i < request.gpu_visible_ids.size(); ++i) {
      if (i > 0) visible += ',';
      visible += request.gpu_visible_ids[i];
    }
  }
  env.set("FAIRWAY_JOB_ID", id);
  set_job_fact("FAIRWAY_JOB_NAME", request.name);
  env.set("FAIRWAY_NODELIST", request.nodelist);
  env.set("FAIRWAY_CPUS", cpus);
  env.set("FAIRWAY_GPUS", comma_list(request.gpus));
  // Always set, even empty: an empty list hides every GPU from a job that asked for none.
  env.set("CUDA_VISIBLE_DEVICES", visible);
  if (!request.gpus.empty()) {
    // As Slurm's gres/gpu plugin: the job's GPUs on this node, by index and count, and
    // the same list for AMD's and others' runtimes.
    env.set("SLURM_JOB_GPUS", comma_list(request.gpus));
    // A step's tasks also learn the step's GPUs on this node (all of the job's here: a
    // step shares its job's GPUs), as Slurm's gres/gpu plugin tells them.
    if (request.step) env.set("SLURM_STEP_GPUS", comma_list(request.gpus));
    env.set("SLURM_GPUS_ON_NODE", std::to_string(request.gpus.size()));
    env.set("GPU_DEVICE_ORDINAL", visible);
    env.set("ROCR_VISIBLE_DEVICES", visible);  // AMD's runtime
    env.set("ZE_AFFINITY_MASK", visible);      // Intel's Level Zero
  }
  set_job_fact("FAIRWAY_SUBMIT_DIR", request.submit_dir.empty() && request.step ? "" : submit_dir);
  env.set("SLURM_JOB_ID", id);
  env.set("SLURM_JOBID", id);
  set_job_fact("SLURM_JOB_NAME", request.name);
  env.set("SLURM_JOB_NODELIST", request.nodelist);
  env.set("SLURM_NODELIST", request.nodelist);
  env.set("SLURM_NNODES", std::to_string(request.nnodes));
  env.set("SLURM_JOB_NUM_NODES", std::to_string(request.nnodes));
  if (const ArrayTaskFacts& a = request.array; a.is_task()) {
    env.set("SLURM_ARRAY_JOB_ID", std::to_string(a.array_job.value()));
    env.set("SLURM_ARRAY_TASK_ID", std::to_string(a.task));
    env.set("SLURM_ARRAY_TASK_COUNT", std::to_string(a.count));
    env.set("SLURM_ARRAY_TASK_MIN", std::to_string(a.min));
    env.set("SLURM_ARRAY_TASK_MAX", std::to_string(a.max));
    env.set("SLURM_ARRAY_TASK_STEP", std::to_string(a.step));
  }
  // As sbatch: the task variables exist only for what the user gave.
  const TaskLayout& t = request.tasks;
  std::vector<std::int32_t> node_cores = request.node_cores;
  if (node_cores.empty()) node_cores.push_back(static_cast<std::int32_t>(request.cores.size()));
  std::vector<std::int32_t> per_node = tasks_per_node(t, node_cores);
  // A batch job that gave no task count: sbatch counts a task per CPU it got (per
  // --cpus-per-task), so --exclusive shows 28 on a 28-core node.
  if (!request.step && t.ntasks == 0 && t.ntasks_per_node == 0) {
    const std::int32_t cpt = std::max(1, t.cpus_per_task);
    for (std::size_t i = 0; i < per_node.size(); ++i) per_node[i] = std::max(1, node_cores[i] / cpt);
  }
  if (t.ntasks > 0 || t.ntasks_per_node > 0) {
    std::int64_t total = 0;
    for (std::int32_t n : per_node) total += n;
    const std::string ntasks = std::to_string(t.ntasks > 0 ? t.ntasks : total);
    env.set("SLURM_NTASKS", ntasks);
    env.set("SLURM_NPROCS", ntasks);
  }
  if (t.cpus_per_task > 0) env.set("SLURM_CPUS_PER_TASK", std::to_string(t.cpus_per_task));
  if (t.ntasks_per_node > 0) env.set("SLURM_NTASKS_PER_NODE", std::to_string(t.ntasks_per_node));
  env.set("SLURM_TASKS_PER_NODE", repeat_counts(per_node));
  // A step knows only this node's cores: its tasks keep the job's list from the script.
  if (request.step && request.node_cores.empty()) {
    env.set_default("SLURM_JOB_CPUS_PER_NODE", repeat_counts(node_cores));
  } else {
    env.set("SLURM_JOB_CPUS_PER_NODE", repeat_counts(node_cores));
  }
  env.set("SLURM_CPUS_ON_NODE", std::to_string(request.cores.size()));
  // The batch script is task 0 on node 0.
  env.set("SLURM_PROCID", "0");
  env.set("SLURM_NODEID", "0");
  env.set("SLURM_LOCALID", "0");
  env.set("SLURM_GTIDS", "0");
  if (!request.node_name.empty()) {
    env.set("SLURMD_NODENAME", request.node_name);
    env.set("SLURM_TOPOLOGY_ADDR", request.node_name);
    env.set("SLURM_TOPOLOGY_ADDR_PATTERN", "node");  // no switch tree: the node alone
  }
  // As Slurm 22.05's batch job has them (tests/conformance): where it runs, and no node
  // aliases (cloud nodes' addresses).
  env.set("ENVIRONMENT", "BATCH");
  env.set("SLURM_NODE_ALIASES", "(null)");
  env.set("SLURM_JOB_UID", std::to_string(user.uid));
  env.set("SLURM_JOB_GID", std::to_string(request.gid.value_or(user.gid)));
  set_job_fact("SLURM_SUBMIT_DIR", request.submit_dir.empty() && request.step ? "" : submit_dir);
  env.set("SLURM_JOB_USER", user.name);
  if (!request.account.empty()) env.set("SLURM_JOB_ACCOUNT", request.account);  // as Slurm: only with one
  set_job_fact("SLURM_JOB_PARTITION", request.partition);
  // Slurm sets it only once the job has been requeued: a first run has none.
  if (request.restarts > 0) env.set("SLURM_RESTART_COUNT", std::to_string(request.restarts));
  return env.to_strings();
}

}  // namespace fairway::agent
