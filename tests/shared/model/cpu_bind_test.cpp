// srun --cpu-bind and --distribution: each task's CPUs and rank as task/affinity gives them.
#include "shared/model/cpu_bind.h"

#include <gtest/gtest.h>

namespace fairway {
namespace {

using Cpus = std::vector<std::vector<int>>;

TEST(CpuBind, EachTaskGetsItsOwnCoresByDefault) {
  const CpuBind cores = *parse_cpu_bind("");
  EXPECT_EQ(cores.type, CpuBindType::kCores);
  // Two cores with two PUs each (SMT siblings 0/4, 1/5): a task per core, both PUs.
  const Cpus node = {{0, 4}, {1, 5}};
  EXPECT_EQ(task_cpus(cores, node, 2, 1), (Cpus{{0, 4}, {1, 5}}));
  // One task (mpirun's daemon) gets every core of the step there.
  EXPECT_EQ(task_cpus(cores, node, 1, 1), (Cpus{{0, 1, 4, 5}}));
  // threads: one PU each.
  EXPECT_EQ(task_cpus(*parse_cpu_bind("threads"), node, 4, 1), (Cpus{{0}, {1}, {4}, {5}}));
  EXPECT_EQ(task_cpus(*parse_cpu_bind("none"), node, 2, 1), (Cpus{{}, {}}));
  EXPECT_EQ(task_cpus(*parse_cpu_bind("map_cpu:5,0"), node, 2, 1), (Cpus{{5}, {0}}));
  EXPECT_EQ(task_cpus(*parse_cpu_bind("verbose,mask_cpu:0x3,0x30"), node, 3, 1),
            (Cpus{{0, 1}, {4, 5}, {0, 1}}));
  EXPECT_TRUE(parse_cpu_bind("v,cores")->verbose);
}

TEST(CpuBind, TasksAreToldTheirMasksAsSlurmTellsThem) {
  const auto env = cpu_bind_environment(*parse_cpu_bind("cores"), {{0}, {1}});
  EXPECT_EQ(env,
            (std::vector<std::pair<std::string, std::string>>{{"SLURM_CPU_BIND", "quiet,mask_cpu:0x1,0x2"},
                                                              {"SLURM_CPU_BIND_TYPE", "mask_cpu:"},
                                                              {"SLURM_CPU_BIND_LIST", "0x1,0x2"},
                                                              {"SLURM_CPU_BIND_VERBOSE", "quiet"}}));
  EXPECT_EQ(cpu_mask_hex({0, 5, 12}), "0x1021");
}

TEST(CpuBind, BadValuesAreNamed) {
  EXPECT_EQ(parse_cpu_bind("rank_ldom").error().message,
            "--cpu-bind=rank_ldom: 'rank_ldom' is not one of none, cores, threads, sockets, map_cpu:, "
            "mask_cpu:, verbose");
  EXPECT_EQ(parse_cpu_bind("map_cpu:x").error().message, "--cpu-bind=map_cpu:x: 'x' is not a CPU number");
  EXPECT_EQ(parse_cpu_bind("mask_cpu:0x0").error().message, "--cpu-bind=mask_cpu:0x0: mask '0' names no CPU");
  EXPECT_EQ(parse_cyclic_distribution("round").error().message,
            "--distribution=round: 'round' is not block, cyclic or fcyclic");
}

TEST(CpuBind, CyclicRanksGoRoundTheNodes) {
  EXPECT_FALSE(*parse_cyclic_distribution("block:cyclic"));
  EXPECT_TRUE(*parse_cyclic_distribution("cyclic:block"));
  EXPECT_EQ(node_ranks({2, 2}, 0, false), (std::vector<std::int32_t>{0, 1}));
  EXPECT_EQ(node_ranks({2, 2}, 1, false), (std::vector<std::int32_t>{2, 3}));
  EXPECT_EQ(node_ranks({2, 2}, 0, true), (std::vector<std::int32_t>{0, 2}));
  EXPECT_EQ(node_ranks({3, 1}, 0, true), (std::vector<std::int32_t>{0, 2, 3}));
  EXPECT_EQ(node_ranks({3, 1}, 1, true), (std::vector<std::int32_t>{1}));
}

}  // namespace
}  // namespace fairway
