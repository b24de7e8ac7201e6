#include "agent/step/relay_plan.h"

#include <gtest/gtest.h>

#include <map>

namespace fairway::agent {
namespace {

std::vector<std::pair<std::string, std::string>> good_env() {
  return {{kStepEnvAddress, "tcp://10.0.0.1:4000"},
          {kStepEnvKey, "0123456789abcdef0123456789abcdef"},
          {kStepEnvId, "3"},
          {kStepEnvNodeIndex, "1"},
          {kStepEnvNodes, "cn01,cn02,cn03"},
          {kStepEnvTasks, "3,2,2"},
          {kStepEnvDir, "/home/alice"},
          {kStepEnvCpusPerTask, "2"},
          {kStepEnvGrace, "7"}};
}

TEST(RelayPlan, ReadsItsEnvironmentAndNumbersItsTasks) {
  auto p = relay_plan_from_values(good_env(), {"hostname", "-s"});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->first_rank(), 3);
  EXPECT_EQ(p->local_tasks(), 2);
  EXPECT_EQ(p->total_tasks(), 7);
  EXPECT_EQ(p->grace_s, 7);
  std::map<std::string, std::string> env;
  for (const auto& [k, v] : task_environment(*p, 1)) env[k] = v;
  EXPECT_EQ(env["SLURM_PROCID"], "4");
  EXPECT_EQ(env["SLURM_LOCALID"], "1");
  EXPECT_EQ(env["SLURM_NODEID"], "1");
  EXPECT_EQ(env["SLURM_STEP_ID"], "3");
  EXPECT_EQ(env["SLURM_STEP_NUM_TASKS"], "7");
  EXPECT_EQ(env["SLURM_STEP_NUM_NODES"], "3");
  EXPECT_EQ(env["SLURM_STEP_TASKS_PER_NODE"], "3,2(x2)");
  // As srun: the step's split, and the ranks on this node (3 and 4).
  EXPECT_EQ(env["SLURM_TASKS_PER_NODE"], "3,2(x2)");
  EXPECT_EQ(env["SLURM_GTIDS"], "3,4");
  // srun's -c reaches the tasks through srun's environment, as Slurm's: none is added here.
  EXPECT_FALSE(env.contains("SLURM_CPUS_PER_TASK"));
  EXPECT_EQ(env["SLURMD_NODENAME"], "cn02");
  EXPECT_EQ(env["SLURM_GTIDS"], "3,4");
  EXPECT_EQ(env["SLURM_TASKS_PER_NODE"], "3,2(x2)");
}

// srun -m cyclic and --cpu-bind reach the relay: ranks go round the nodes; the job's
// cores here come with their PUs.
TEST(RelayPlan, CyclicRanksAndTheStepsCores) {
  auto env = good_env();
  env.emplace_back(kStepEnvDistribution, "cyclic:block");
  env.emplace_back(kStepEnvCpuBind, "verbose,threads");
  env.emplace_back(kStepEnvCorePus, "0,28;1,29");
  auto p = relay_plan_from_values(env, {"true"});
  ASSERT_TRUE(p) << p.error().message;
  // 3,2,2 tasks cyclic: node 1 runs ranks 1 and 4.
  EXPECT_EQ(p->rank_of(0), 1);
  EXPECT_EQ(p->rank_of(1), 4);
  EXPECT_EQ(p->core_pus, (std::vector<std::vector<int>>{{0, 28}, {1, 29}}));
  EXPECT_TRUE(p->cpu_bind.verbose);
  EXPECT_EQ(p->cpu_bind.type, CpuBindType::kThreads);
  std::map<std::string, std::string> task;
  for (const auto& [k, v] : task_environment(*p, 1)) task[k] = v;
  EXPECT_EQ(task["SLURM_PROCID"], "4");
  EXPECT_EQ(task["SLURM_DISTRIBUTION"], "cyclic");
  EXPECT_EQ(task["SLURM_GTIDS"], "1,4");
  env.back().second = "0,x";
  EXPECT_EQ(relay_plan_from_values(env, {"true"}).error().message,
            "FAIRWAY_STEP_CORE_PUS must be an integer >= 0, got 'x'");
}

// srun --mpi=pmi2 reaches the relay with the job's id (PMI_JOBID is JOB.STEP); the layout
// by rank is what the PMI server tells MPICH.
TEST(RelayPlan, MpiAndTheStepsLayoutByRank) {
  auto env = good_env();
  env.emplace_back(kStepEnvMpi, "pmi2");
  env.emplace_back(kStepEnvJob, "812");
  auto p = relay_plan_from_values(env, {"true"});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->mpi, "pmi2");
  EXPECT_EQ(p->job_id, "812");
  EXPECT_EQ(p->node_of_rank(), (std::vector<std::int32_t>{0, 0, 0, 1, 1, 2, 2}));
  env.emplace_back(kStepEnvDistribution, "cyclic");
  EXPECT_EQ(relay_plan_from_values(env, {"true"})->node_of_rank(),
            (std::vector<std::int32_t>{0, 1, 2, 0, 1, 2, 0}));
  env.pop_back();
  EXPECT_EQ(relay_plan_from_values(good_env(), {"true"})->mpi, "");
  for (auto& [k, v] : env) {
    if (k == kStepEnvMpi) v = "pmi3";
  }
  EXPECT_EQ(relay_plan_from_values(env, {"true"}).error().message,
            "FAIRWAY_STEP_MPI 'pmi3': expected none, pmi2 or pmix");
  for (auto& [k, v] : env) {
    if (k == kStepEnvJob) v = "8x";
    if (k == kStepEnvMpi) v = "none";
  }
  EXPECT_EQ(relay_plan_from_values(env, {"true"}).error().message,
            "FAIRWAY_STEP_JOB must be a job id, got '8x'");
}

TEST(RelayPlan, EveryBadValueIsNamed) {
  const auto with = [](const char* name, const std::string& value) {
    auto env = good_env();
    for (auto& [k, v] : env) {
      if (k == name) v = value;
    }
    return env;
  };
  const auto error_of = [](const std::vector<std::pair<std::string, std::string>>& env) {
    auto p = relay_plan_from_values(env, {"true"});
    return p ? std::string("accepted") : p.error().message;
  };
  EXPECT_EQ(error_of(with(kStepEnvNodeIndex, "3")), "FAIRWAY_STEP_NODE_INDEX 3 is past the step's 3 nodes");
  EXPECT_EQ(error_of(with(kStepEnvTasks, "3,2")), "FAIRWAY_STEP_TASKS_PER_NODE has 2 entries for 3 nodes");
  EXPECT_EQ(error_of(with(kStepEnvTasks, "3,0,1")),
            "FAIRWAY_STEP_TASKS_PER_NODE must be an integer >= 1, got '0'");
  EXPECT_EQ(error_of(with(kStepEnvId, "x")), "FAIRWAY_STEP_ID must be an integer >= 0, got 'x'");
  EXPECT_EQ(error_of(with(kStepEnvGrace, "-1")), "FAIRWAY_STEP_GRACE_S must be an integer >= 0, got '-1'");
  auto env = good_env();
  env.erase(env.begin() + 1);
  EXPECT_NE(error_of(env).find("FAIRWAY_STEP_KEY is not set"), std::string::npos);
  EXPECT_FALSE(relay_plan_from_values(good_env(), {}));
}

}  // namespace
}  // namespace fairway::agent
