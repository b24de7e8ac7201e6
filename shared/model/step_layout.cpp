#include "shared/model/step_layout.h"

#include <algorithm>

#include "shared/model/task_distribution.h"

namespace fairway {
namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

Result<StepLayout> step_layout(const StepAsk& ask, const std::vector<JobNodeRoom>& job_nodes,
                               const TaskLayout& job_tasks) {
  StepLayout out;
  out.cpus_per_task = std::max(1, ask.cpus_per_task > 0 ? ask.cpus_per_task : job_tasks.cpus_per_task);
  const auto job_count = static_cast<std::int32_t>(job_nodes.size());
  for (const std::string& n : ask.nodelist) {
    const bool in_job =
        std::any_of(job_nodes.begin(), job_nodes.end(), [&](const JobNodeRoom& j) { return j.name == n; });
    if (!in_job) return invalid_argument("--nodelist: node " + n + " is not one of the job's nodes");
    if (contains(ask.exclude, n)) return invalid_argument("--nodelist: node " + n + " is also in --exclude");
  }
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < job_nodes.size(); ++i) {
    if (!contains(ask.exclude, job_nodes[i].name)) candidates.push_back(i);
  }
  const auto named = static_cast<std::int32_t>(ask.nodelist.size());
  const auto available = static_cast<std::int32_t>(candidates.size());
  // Slurm's count: -N; else the named nodes; else -n at one task per node at most; else
  // every node the job has (less the excluded).
  std::int32_t count = ask.nodes > 0                                ? ask.nodes
                       : named > 0                                  ? named
                       : ask.ntasks > 0 && ask.ntasks_per_node == 0 ? std::min(ask.ntasks, available)
                                                                    : available;
  if (ask.nodes > 0 && ask.nodes < named) {
    return invalid_argument("--nodes=" + std::to_string(ask.nodes) + ": --nodelist names " +
                            std::to_string(named) + " nodes");
  }
  if (count > available || count < 1) {
    return invalid_argument("the step asks for " + std::to_string(count) + " nodes, the job has " +
                            std::to_string(available) + (ask.exclude.empty() ? "" : " not excluded") +
                            " (of " + std::to_string(job_count) + ")");
  }
  // The named nodes first, then the job's others in its order; the step keeps job order.
  std::vector<bool> taken(job_nodes.size(), false);
  std::int32_t chosen = 0;
  for (std::size_t i : candidates) {
    if (contains(ask.nodelist, job_nodes[i].name)) taken[i] = true, ++chosen;
  }
  for (std::size_t i : candidates) {
    if (chosen >= count) break;
    if (!taken[i]) taken[i] = true, ++chosen;
  }
  std::vector<std::int32_t> cores;
  for (std::size_t i = 0; i < job_nodes.size(); ++i) {
    if (taken[i]) out.nodes.push_back(i), cores.push_back(job_nodes[i].cores);
  }
  // -n spreads as the job's tasks do; --ntasks-per-node alone, that many each; -N or -w
  // alone, one per node; nothing, the job's own layout.
  TaskLayout layout = job_tasks;
  layout.cpus_per_task = out.cpus_per_task;
  if (ask.ntasks > 0) {
    layout = TaskLayout{ask.ntasks, out.cpus_per_task, 0};
  } else if (ask.ntasks_per_node > 0) {
    layout = TaskLayout{0, out.cpus_per_task, ask.ntasks_per_node};
  } else if (ask.nodes > 0 || named > 0) {
    layout = TaskLayout{0, out.cpus_per_task, 1};
  }
  if (ask.ntasks > 0 && ask.ntasks < count) {
    return invalid_argument("the step asks for " + std::to_string(ask.ntasks) + " tasks on " +
                            std::to_string(count) + " nodes: each node runs at least one");
  }
  out.tasks_per_node = tasks_per_node(layout, cores);
  if (ask.ntasks > 0 && ask.ntasks_per_node > 0) {
    // Both: block, at most ntasks_per_node on a node.
    std::int32_t left = ask.ntasks;
    for (std::size_t i = 0; i < cores.size(); ++i) {
      const auto later = static_cast<std::int32_t>(cores.size() - 1 - i);
      out.tasks_per_node[i] = std::max(1, std::min(ask.ntasks_per_node, left - later));
      left -= out.tasks_per_node[i];
    }
    if (left > 0) {
      return invalid_argument("--ntasks=" + std::to_string(ask.ntasks) + " does not fit " +
                              std::to_string(count) +
                              " nodes at --ntasks-per-node=" + std::to_string(ask.ntasks_per_node));
    }
  }
  std::int64_t placed = 0;
  for (std::int32_t t : out.tasks_per_node) placed += t;
  if (ask.ntasks > 0 && placed != ask.ntasks) {
    std::int64_t fits = 0;
    for (std::int32_t c : cores) fits += std::max(1, c / out.cpus_per_task);
    return invalid_argument("the step asks for " + std::to_string(ask.ntasks) + " tasks on " +
                            std::to_string(count) + " nodes: the job holds room for " + std::to_string(fits) +
                            " there (" + std::to_string(out.cpus_per_task) + " cores per task)");
  }
  for (std::size_t i = 0; i < cores.size(); ++i) {
    const std::int64_t need = static_cast<std::int64_t>(out.tasks_per_node[i]) * out.cpus_per_task;
    if (need > cores[i]) {
      return invalid_argument("the step needs " + std::to_string(need) + " cores on " +
                              job_nodes[out.nodes[i]].name + " (" + std::to_string(out.tasks_per_node[i]) +
                              " tasks x " + std::to_string(out.cpus_per_task) +
                              " cpus-per-task), the job holds " + std::to_string(cores[i]) + " there");
    }
  }
  return out;
}

}  // namespace fairway
