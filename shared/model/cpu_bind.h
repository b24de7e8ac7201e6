// srun --cpu-bind and --distribution as Slurm's task/affinity reads them: which CPUs each
// of a node's tasks is bound to, and the SLURM_CPU_BIND* a task is told. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shared/base/result.h"

namespace fairway {

enum class CpuBindType : std::uint8_t { kNone, kCores, kThreads, kSockets, kMapCpu, kMaskCpu };

struct CpuBind {
  CpuBindType type = CpuBindType::kCores;  // task/affinity's default
  bool verbose = false;
  std::vector<std::vector<int>> lists;  // map_cpu: one CPU each; mask_cpu: the CPUs of each mask
  bool operator==(const CpuBind&) const = default;
};

// "cores", "verbose,cores", "none", "map_cpu:0,2", "mask_cpu:0x3,0xc" ...; "" is cores.
// Errors name the value.
Result<CpuBind> parse_cpu_bind(std::string_view text);

// --distribution=block|cyclic[:block|cyclic|fcyclic][,Pack|NoPack]: whether ranks go round
// the step's nodes (cyclic) instead of filling each in turn (block, the default).
Result<bool> parse_cyclic_distribution(std::string_view text);

// The global ranks of node `node_index`'s tasks, in local order.
std::vector<std::int32_t> node_ranks(const std::vector<std::int32_t>& tasks_per_node, std::size_t node_index,
                                     bool cyclic);

// Each local task's CPUs (OS numbers; empty: not bound). `core_pus`: the step's cores on the
// node, each with its PUs, in order. A task takes its share of the cores (cores / tasks, as
// Slurm's step does: mpirun's one daemon a node gets them all), at least `cpus_per_task`.
std::vector<std::vector<int>> task_cpus(const CpuBind& bind, const std::vector<std::vector<int>>& core_pus,
                                        std::int32_t local_tasks, std::int32_t cpus_per_task);

// "0x3" for CPUs {0, 1}.
std::string cpu_mask_hex(const std::vector<int>& cpus);

// What Slurm tells each task of its node's binding: SLURM_CPU_BIND, _TYPE, _LIST, _VERBOSE.
std::vector<std::pair<std::string, std::string>> cpu_bind_environment(
    const CpuBind& bind, const std::vector<std::vector<int>>& per_task);

}  // namespace fairway
