#include "agent/step/relay_plan.h"

#include <charconv>
#include <numeric>

#include "shared/base/count_list.h"
#include "shared/base/try.h"

namespace fairway::agent {
namespace {

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find(',', begin);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

Result<std::int32_t> int_of(const std::string& name, const std::string& text, std::int32_t min) {
  std::int32_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < min) {
    return invalid_argument(name + " must be an integer >= " + std::to_string(min) + ", got '" + text + "'");
  }
  return v;
}

}  // namespace

std::int32_t RelayPlan::first_rank() const {
  return std::accumulate(tasks_per_node.begin(), tasks_per_node.begin() + node_index, 0);
}

std::int32_t RelayPlan::rank_of(std::int32_t local) const {
  if (!cyclic) return first_rank() + local;
  const auto ranks = node_ranks(tasks_per_node, static_cast<std::size_t>(node_index), true);
  return ranks.at(static_cast<std::size_t>(local));
}

Result<std::vector<std::vector<int>>> parse_core_pus(const std::string& text) {
  std::vector<std::vector<int>> out;
  if (text.empty()) return out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find(';', begin);
    if (end == std::string::npos) end = text.size();
    std::vector<int> core;
    for (const std::string& pu : split_commas(text.substr(begin, end - begin))) {
      FAIRWAY_TRY_ASSIGN(n, int_of(kStepEnvCorePus, pu, 0));
      core.push_back(n);
    }
    out.push_back(std::move(core));
    begin = end + 1;
  }
  return out;
}

std::int32_t RelayPlan::total_tasks() const {
  return std::accumulate(tasks_per_node.begin(), tasks_per_node.end(), 0);
}

std::vector<std::int32_t> RelayPlan::node_of_rank() const {
  std::vector<std::int32_t> out(static_cast<std::size_t>(total_tasks()), 0);
  for (std::size_t n = 0; n < tasks_per_node.size(); ++n) {
    for (const std::int32_t r : node_ranks(tasks_per_node, n, cyclic))
      out.at(static_cast<std::size_t>(r)) = static_cast<std::int32_t>(n);
  }
  return out;
}

Result<RelayPlan> relay_plan_from_values(const std::vector<std::pair<std::string, std::string>>& values,
                                         std::vector<std::string> command) {
  auto get = [&](const char* name) -> Result<std::string> {
    for (const auto& [k, v] : values) {
      if (k == name) return v;
    }
    return invalid_argument(std::string(name) + " is not set (fairway-step is started by fairway-agent)");
  };
  RelayPlan p;
  if (command.empty() || command.front().empty()) return invalid_argument("no command to run");
  p.command = std::move(command);
  auto address = get(kStepEnvAddress);
  auto key = get(kStepEnvKey);
  auto step = get(kStepEnvId);
  auto index = get(kStepEnvNodeIndex);
  auto nodes = get(kStepEnvNodes);
  auto tasks = get(kStepEnvTasks);
  auto dir = get(kStepEnvDir);
  for (const auto* r : {&address, &key, &step, &index, &nodes, &tasks, &dir}) {
    if (!*r) return std::unexpected(r->error());
  }
  p.address = *address;
  p.key = *key;
  p.working_dir = *dir;
  FAIRWAY_TRY_ASSIGN(s, int_of(kStepEnvId, *step, 0));
  p.step = s;
  p.nodes = split_commas(*nodes);
  for (const std::string& t : split_commas(*tasks)) {
    FAIRWAY_TRY_ASSIGN(n, int_of(kStepEnvTasks, t, 1));
    p.tasks_per_node.push_back(n);
  }
  if (p.tasks_per_node.size() != p.nodes.size()) {
    return invalid_argument(std::string(kStepEnvTasks) + " has " + std::to_string(p.tasks_per_node.size()) +
                            " entries for " + std::to_string(p.nodes.size()) + " nodes");
  }
  FAIRWAY_TRY_ASSIGN(i, int_of(kStepEnvNodeIndex, *index, 0));
  if (i >= static_cast<std::int32_t>(p.nodes.size())) {
    return invalid_argument(std::string(kStepEnvNodeIndex) + " " + *index + " is past the step's " +
                            std::to_string(p.nodes.size()) + " nodes");
  }
  p.node_index = i;
  if (auto t = get(kStepEnvPty)) p.pty = *t == "1";
  if (auto c = get(kStepEnvCpusPerTask)) {
    FAIRWAY_TRY_ASSIGN(n, int_of(kStepEnvCpusPerTask, *c, 1));
    p.cpus_per_task = n;
  }
  if (auto b = get(kStepEnvCpuBind)) {
    auto bind = parse_cpu_bind(*b);
    if (!bind) return invalid_argument(std::string(kStepEnvCpuBind) + ": " + bind.error().message);
    p.cpu_bind = *bind;
    p.cpu_bind_text = *b;
  }
  if (auto d = get(kStepEnvDistribution)) {
    auto cyclic = parse_cyclic_distribution(*d);
    if (!cyclic) return invalid_argument(std::string(kStepEnvDistribution) + ": " + cyclic.error().message);
    p.cyclic = *cyclic;
  }
  if (auto c = get(kStepEnvCorePus)) {
    FAIRWAY_TRY_ASSIGN(cores, parse_core_pus(*c));
    p.core_pus = std::move(cores);
  }
  if (auto m = get(kStepEnvMpi)) {
    if (*m != "none" && *m != "pmi2" && *m != "pmix") {
      return invalid_argument(std::string(kStepEnvMpi) + " '" + *m + "': expected none, pmi2 or pmix");
    }
    if (*m != "none") p.mpi = *m;
  }
  p.job_id = get(kStepEnvJob).value_or("0");
  if (p.job_id.empty() || p.job_id.find_first_not_of("0123456789") != std::string::npos) {
    return invalid_argument(std::string(kStepEnvJob) + " must be a job id, got '" + p.job_id + "'");
  }
  if (auto g = get(kStepEnvGrace)) {
    FAIRWAY_TRY_ASSIGN(n, int_of(kStepEnvGrace, *g, 0));
    p.grace_s = n;
  }
  return p;
}

std::vector<std::pair<std::string, std::string>> task_environment(const RelayPlan& plan,
                                                                  std::int32_t local_id) {
  std::string nodelist;
  for (const std::string& n : plan.nodes) nodelist += (nodelist.empty() ? "" : ",") + n;
  const std::string step = std::to_string(plan.step);
  const std::string ntasks = std::to_string(plan.total_tasks());
  const std::string nnodes = std::to_string(plan.nodes.size());
  // As srun: the global ids of the step's tasks on this node, and the step's split.
  std::string gtids;
  for (std::int32_t l = 0; l < plan.local_tasks(); ++l) {
    gtids += (gtids.empty() ? "" : ",") + std::to_string(plan.rank_of(l));
  }
  return {{"SLURM_STEP_ID", step},
          {"SLURM_STEPID", step},
          {"SLURM_PROCID", std::to_string(plan.rank_of(local_id))},
          {"SLURM_LOCALID", std::to_string(local_id)},
          {"SLURM_NODEID", std::to_string(plan.node_index)},
          {"SLURM_STEP_NUM_TASKS", ntasks},
          {"SLURM_STEP_NUM_NODES", nnodes},
          {"SLURM_STEP_NODELIST", nodelist},
          {"SLURM_STEP_TASKS_PER_NODE", repeat_counts(plan.tasks_per_node)},
          {"SLURM_TASKS_PER_NODE", repeat_counts(plan.tasks_per_node)},
          {"SLURM_GTIDS", gtids},
          {"SLURM_NTASKS", ntasks},
          {"SLURM_NPROCS", ntasks},
          {"SLURM_DISTRIBUTION", plan.cyclic ? "cyclic" : "block"},
          {"SLURMD_NODENAME", plan.nodes[static_cast<std::size_t>(plan.node_index)]},
          {"FAIRWAY_STEP_RANK", std::to_string(plan.rank_of(local_id))}};
}

}  // namespace fairway::agent
