#include "agent/os/launch_environment.h"

#include <algorithm>

#include <gtest/gtest.h>

namespace fairway::agent {
namespace {

LaunchRequest sample() {
  LaunchRequest r;
  r.job = JobId(31);
  r.user = "alice";
  r.account = "chem";
  r.partition = "gpu";
  r.name = "md-run";
  r.program.working_dir = "/home/alice/run";
  r.cores = {4, 5, 6};
  r.gpus = {1};
  r.node_name = "gpu01";
  r.nodelist = "gpu[01-02]";
  r.nnodes = 2;
  r.tasks.ntasks = 6;
  r.node_cores = {3, 3};
  return r;
}

JobUser alice() {
  return JobUser{"alice", 1000, 1000, "/home/alice", "/bin/bash", {1000}};
}

std::string value_of(const std::vector<std::string>& env, const std::string& name) {
  std::string found = "<unset>";
  for (const auto& entry : env) {
    if (entry.starts_with(name + "=")) found = entry.substr(name.size() + 1);
  }
  return found;
}

TEST(LaunchEnvironmentTest, ExportsFairwayAndSlurmVariables) {
  auto env = build_job_environment(sample(), alice());
  ASSERT_TRUE(env) << env.error().message;
  EXPECT_EQ(value_of(*env, "FAIRWAY_JOB_ID"), "31");
  EXPECT_EQ(value_of(*env, "FAIRWAY_JOB_NAME"), "md-run");
  EXPECT_EQ(value_of(*env, "FAIRWAY_NODELIST"), "gpu[01-02]");
  EXPECT_EQ(value_of(*env, "FAIRWAY_CPUS"), "4,5,6");
  EXPECT_EQ(value_of(*env, "FAIRWAY_GPUS"), "1");
  EXPECT_EQ(value_of(*env, "CUDA_VISIBLE_DEVICES"), "1");
  EXPECT_EQ(value_of(*env, "FAIRWAY_SUBMIT_DIR"), "/home/alice/run");
  EXPECT_EQ(value_of(*env, "SLURM_JOB_ID"), "31");
  EXPECT_EQ(value_of(*env, "SLURM_JOBID"), "31");
  EXPECT_EQ(value_of(*env, "SLURM_JOB_NAME"), "md-run");
  EXPECT_EQ(value_of(*env, "SLURM_JOB_NODELIST"), "gpu[01-02]");
  EXPECT_EQ(value_of(*env, "SLURM_NNODES"), "2");
  EXPECT_EQ(value_of(*env, "SLURM_NTASKS"), "6");
  EXPECT_EQ(value_of(*env, "SLURM_TASKS_PER_NODE"), "3(x2)");
  EXPECT_EQ(value_of(*env, "SLURM_JOB_CPUS_PER_NODE"), "3(x2)");
  EXPECT_EQ(value_of(*env, "SLURMD_NODENAME"), "gpu01");
  EXPECT_EQ(value_of(*env, "SLURM_JOB_UID"), "1000");
  EXPECT_EQ(value_of(*env, "SLURM_CPUS_ON_NODE"), "3");
  EXPECT_EQ(value_of(*env, "SLURM_SUBMIT_DIR"), "/home/alice/run");
  EXPECT_EQ(value_of(*env, "SLURM_JOB_USER"), "alice");
  EXPECT_EQ(value_of(*env, "SLURM_JOB_ACCOUNT"), "chem");
  EXPECT_EQ(value_of(*env, "SLURM_JOB_PARTITION"), "gpu");
  EXPECT_EQ(value_of(*env, "HOME"), "/home/alice");
  EXPECT_EQ(value_of(*env, "USER"), "alice");
  EXPECT_EQ(value_of(*env, "PATH"), "/usr/local/bin:/usr/bin:/bin");
  // As Slurm 22.05's batch job has them (tests/conformance/expected/plain/env.txt).
  EXPECT_EQ(value_of(*env, "ENVIRONMENT"), "BATCH");
  EXPECT_EQ(value_of(*env, "SLURM_TOPOLOGY_ADDR_PATTERN"), "node");
  EXPECT_EQ(value_of(*env, "SLURM_NODE_ALIASES"), "(null)");
  EXPECT_EQ(value_of(*env, "SLURM_RESTART_COUNT"), "<unset>");
}

// A step (srun inside the job) is launched without the job's name, partition or submit
// dir: its tasks keep the batch script's, which srun's environment carries, as Slurm's do.
TEST(LaunchEnvironmentTest, AStepKeepsTheJobsNamePartitionAndSubmitDir) {
  LaunchRequest r = sample();
  r.step = 2;
  r.name.clear();
  r.partition.clear();
  r.submit_dir.clear();
  r.program.working_dir = "/";
  r.program.env = {{"SLURM_JOB_NAME", "md-run"},
                   {"SLURM_JOB_PARTITION", "gpu"},
                   {"SLURM_SUBMIT_DIR", "/home/alice/run"},
                   {"FAIRWAY_SUBMIT_DIR", "/home/alice/run"},
                   {"SLURM_JOB_CPUS_PER_NODE", "3,1"}};
  r.node_cores.clear();
  auto env = build_job_environment(r, alice());
  ASSERT_TRUE(env) << env.error().message;
  EXPECT_EQ(value_of(*env, "SLURM_JOB_NAME"), "md-run");
  EXPECT_EQ(value_of(*env, "SLURM_JOB_PARTITION"), "gpu");
  EXPECT_EQ(value_of(*env, "SLURM_SUBMIT_DIR"), "/home/alice/run");
  EXPECT_EQ(value_of(*env, "FAIRWAY_SUBMIT_DIR"), "/home/alice/run");
  EXPECT_EQ(value_of(*env, "SLURM_JOB_CPUS_PER_NODE"), "3,1");
  // A batch job's own facts still win over what its submitter carried over.
  r.step.reset();
  r.name = "other";
  auto batch = build_job_environment(r, alice());
  ASSERT_TRUE(batch) << batch.error().message;
  EXPECT_EQ(value_of(*batch, "SLURM_JOB_NAME"), "other");
  // SLURM_SUBMIT_DIR is the one fact sbatch itself sets in the job's environment (it
  // replaces any the caller had), so the batch job takes it from there.
  EXPECT_EQ(value_of(*batch, "SLURM_SUBMIT_DIR"), "/home/alice/run");
}

TEST(LaunchEnvironmentTest, SubmitterEnvKeptInOrderButFairwayVariablesWin) {
  LaunchRequest r = sample();
  r.program.env = {{"PATH", "/opt/bin"}, {"FOO", "1"}, {"SLURM_JOB_ID", "7"}, {"FOO", "2"}};
  r.submit_dir = "/home/alice";
  auto env = build_job_environment(r, alice());
  ASSERT_TRUE(env);
  EXPECT_EQ(value_of(*env, "PATH"), "/opt/bin");
  EXPECT_EQ(value_of(*env, "FOO"), "2");
  EXPECT_EQ(value_of(*env, "SLURM_JOB_ID"), "31");
  EXPECT_EQ(value_of(*env, "SLURM_SUBMIT_DIR"), "/home/alice");
  EXPECT_EQ(
      std::count_if(env->begin(), env->end(), [](const std::string& e) { return e.starts_with("FOO="); }), 1);
  EXPECT_EQ(env->front(), "PATH=/opt/bin");  // first-appearance order kept
}

TEST(LaunchEnvironmentTest, GpuVisibleIdsComeFromTheCaller) {
  LaunchRequest r = sample();
  r.gpus = {0, 3};
  r.gpu_visible_ids = {"GPU-11", "GPU-44"};
  auto env = build_job_environment(r, alice());
  ASSERT_TRUE(env);
  EXPECT_EQ(value_of(*env, "FAIRWAY_GPUS"), "0,3");
  EXPECT_EQ(value_of(*env, "CUDA_VISIBLE_DEVICES"), "GPU-11,GPU-44");
  r.gpus.clear();
  r.gpu_visible_ids.clear();
  env = build_job_environment(r, alice());
  ASSERT_TRUE(env);
  EXPECT_EQ(value_of(*env, "CUDA_VISIBLE_DEVICES"), "");  // hides every GPU
  EXPECT_EQ(value_of(*env, "SLURM_JOB_GPUS"), "<unset>");
  EXPECT_EQ(value_of(*env, "SLURM_GPUS_ON_NODE"), "<unset>");
  EXPECT_EQ(value_of(*env, "GPU_DEVICE_ORDINAL"), "<unset>");
}

// As Slurm 22.05 gave a job with GPUs (tests/conformance/expected/gpus2): their indices on
// the node, their count, and the visible list again for GPU_DEVICE_ORDINAL.
TEST(LaunchEnvironmentTest, GpuJobsGetSlurmsGpuVariables) {
  LaunchRequest r = sample();
  r.gpus = {0, 1};
  auto env = build_job_environment(r, alice());
  ASSERT_TRUE(env);
  EXPECT_EQ(value_of(*env, "SLURM_JOB_GPUS"), "0,1");
  EXPECT_EQ(value_of(*env, "SLURM_GPUS_ON_NODE"), "2");
  EXPECT_EQ(value_of(*env, "GPU_DEVICE_ORDINAL"), "0,1");
  EXPECT_EQ(value_of(*env, "ROCR_VISIBLE_DEVICES"), "0,1");
  EXPECT_EQ(value_of(*env, "ZE_AFFINITY_MASK"), "0,1");
  EXPECT_EQ(value_of(*env, "CUDA_VISIBLE_DEVICES"), "0,1");
}

// Slurm sets SLURM_RESTART_COUNT only once a job has been requeued.
TEST(LaunchEnvironmentTest, RestartCountOnlyAfterARequeue) {
  LaunchRequest r = sample();
  auto env = build_job_environment(r, alice());
  ASSERT_TRUE(env);
  EXPECT_EQ(value_of(*env, "SLURM_RESTART_COUNT"), "<unset>");
  r.restarts = 2;
  env = build_job_environment(r, alice());
  ASSERT_TRUE(env);
  EXPECT_EQ(value_of(*env, "SLURM_RESTART_COUNT"), "2");
}

TEST(LaunchEnvironmentTest, BadVariableNamesAreRefused) {
  LaunchRequest r = sample();
  r.program.env = {{"", "x"}};
  auto a = build_job_environment(r, alice());
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("job 31: env: a variable has an empty name"), std::string::npos);
  r.program.env = {{"A=B", "x"}};
  auto b = build_job_environment(r, alice());
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find("'A=B'"), std::string::npos);
  r.program.env = {{"A", std::string("x\0y", 3)}};
  auto c = build_job_environment(r, alice());
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("NUL"), std::string::npos);
}

// What sbatch's batch step sees for each way of asking for tasks, captured from Slurm
// 22.05 on this machine (../shared/slurm-anchor, 2026-11-25: `env` in `sbatch --wrap`),
// plus multi-node rows worked out from Slurm's block distribution.
TEST(LaunchEnvironmentTest, TaskVariablesMatchSbatchForEveryLayout) {
  struct Row {
    const char* options;
    TaskLayout tasks;
    std::vector<std::int32_t> node_cores;
    const char* ntasks;
    const char* cpus_per_task;
    const char* ntasks_per_node;
    const char* tasks_per_node;
    const char* cpus_per_node;
  };
  const Row rows[] = {
      {"(none)", {0, 0, 0}, {1}, "<unset>", "<unset>", "<unset>", "1", "1"},
      {"-n 4", {4, 0, 0}, {4}, "4", "<unset>", "<unset>", "4", "4"},
      {"-c 2", {0, 2, 0}, {2}, "<unset>", "2", "<unset>", "1", "2"},
      {"-n 4 -c 2", {4, 2, 0}, {8}, "4", "2", "<unset>", "4", "8"},
      {"-N 1 --ntasks-per-node=2", {0, 0, 2}, {2}, "2", "<unset>", "2", "2", "2"},
      {"-N 1 -n 3", {3, 0, 0}, {3}, "3", "<unset>", "<unset>", "3", "3"},
      {"-n 2 --ntasks-per-node=2", {2, 0, 2}, {2}, "2", "<unset>", "2", "2", "2"},
      {"-c 3 -n 1", {1, 3, 0}, {3}, "1", "3", "<unset>", "1", "3"},
      {"-N 2 -n 3", {3, 0, 0}, {2, 2}, "3", "<unset>", "<unset>", "2,1", "2(x2)"},
      {"-N 3 --ntasks-per-node=4 -c 2", {0, 2, 4}, {8, 8, 8}, "12", "2", "4", "4(x3)", "8(x3)"},
      {"-n 5 spread 3+2", {5, 0, 0}, {3, 2}, "5", "<unset>", "<unset>", "3,2", "3,2"},
      {"-N 2", {0, 0, 0}, {1, 1}, "<unset>", "<unset>", "<unset>", "1(x2)", "1(x2)"},
      // No task count: a task per CPU got (excl, excl_N2, cpg4 on twonode.sh's Slurm).
      {"--exclusive", {0, 0, 0}, {28}, "<unset>", "<unset>", "<unset>", "28", "28"},
      {"--exclusive -N 2", {0, 0, 0}, {28, 28}, "<unset>", "<unset>", "<unset>", "28(x2)", "28(x2)"},
      {"--exclusive -c 4", {0, 4, 0}, {28}, "<unset>", "4", "<unset>", "7", "28"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.options);
    LaunchRequest r = sample();
    r.tasks = row.tasks;
    r.node_cores = row.node_cores;
    r.nnodes = static_cast<std::int32_t>(row.node_cores.size());
    r.cores.assign(static_cast<std::size_t>(row.node_cores.front()), 0);
    auto env = build_job_environment(r, alice());
    ASSERT_TRUE(env);
    EXPECT_EQ(value_of(*env, "SLURM_NTASKS"), row.ntasks);
    EXPECT_EQ(value_of(*env, "SLURM_NPROCS"), row.ntasks);
    EXPECT_EQ(value_of(*env, "SLURM_CPUS_PER_TASK"), row.cpus_per_task);
    EXPECT_EQ(value_of(*env, "SLURM_NTASKS_PER_NODE"), row.ntasks_per_node);
    EXPECT_EQ(value_of(*env, "SLURM_TASKS_PER_NODE"), row.tasks_per_node);
    EXPECT_EQ(value_of(*env, "SLURM_JOB_CPUS_PER_NODE"), row.cpus_per_node);
    EXPECT_EQ(value_of(*env, "SLURM_CPUS_ON_NODE"), std::to_string(row.node_cores.front()));
    EXPECT_EQ(value_of(*env, "SLURM_PROCID"), "0");
    EXPECT_EQ(value_of(*env, "SLURM_NODEID"), "0");
    EXPECT_EQ(value_of(*env, "SLURM_LOCALID"), "0");
    EXPECT_EQ(value_of(*env, "SLURM_JOB_NUM_NODES"), std::to_string(row.node_cores.size()));
  }
}

// A step's tasks see the step's GPUs as SLURM_STEP_GPUS (rows gpus1, mpg: Slurm's srun
// tasks had it); a batch script has none.
TEST(LaunchEnvironmentTest, AStepsTasksSeeTheStepsGpus) {
  LaunchRequest r = sample();
  auto batch = build_job_environment(r, alice());
  ASSERT_TRUE(batch);
  EXPECT_EQ(value_of(*batch, "SLURM_STEP_GPUS"), "<unset>");
  r.step = 0;
  auto step = build_job_environment(r, alice());
  ASSERT_TRUE(step);
  EXPECT_EQ(value_of(*step, "SLURM_STEP_GPUS"), value_of(*step, "SLURM_JOB_GPUS"));
  EXPECT_NE(value_of(*step, "SLURM_STEP_GPUS"), "<unset>");
}

// sbatch -D sub (the D_sub conformance row): the job works in sub, and its SLURM_SUBMIT_DIR
// is where sbatch ran, which sbatch passed on.
TEST(LaunchEnvironmentTest, TheSubmitDirIsWhereSbatchRanNotTheWorkingDir) {
  LaunchRequest r = sample();
  r.program.working_dir = "/home/alice/run/sub";
  r.program.env.emplace_back("SLURM_SUBMIT_DIR", "/home/alice/run");
  auto env = build_job_environment(r, alice());
  ASSERT_TRUE(env);
  EXPECT_EQ(value_of(*env, "SLURM_SUBMIT_DIR"), "/home/alice/run");
  EXPECT_EQ(value_of(*env, "FAIRWAY_SUBMIT_DIR"), "/home/alice/run");
  r.program.env.pop_back();  // a job submitted without it: its working dir, as before
  env = build_job_environment(r, alice());
  ASSERT_TRUE(env);
  EXPECT_EQ(value_of(*env, "SLURM_SUBMIT_DIR"), "/home/alice/run/sub");
}

TEST(LaunchEnvironmentTest, OutputPatternsAsSbatchExpandsThem) {
  // Expected names captured from Slurm 22.05's sbatch on this machine (job 7819, user
  // root, -J pat, node vm), with our job, user and node.
  const OutputNameFields f{JobId(7819), "root", "pat", "vm", JobId(), 0};
  EXPECT_EQ(expand_output_path("p_%j_%u_%x_%N_%A_%a_%%_%5j.out", f, "/w", ""),
            "/w/p_7819_root_pat_vm_7819_4294967294_%_07819.out");
  EXPECT_EQ(expand_output_path("q_%J_%s_%t_%n_%3a_%b_%z_%Q.out", f, "/w", ""),
            "/w/q_7819_batch_0_0_4294967294_%b_%z_%Q.out");
  EXPECT_EQ(expand_output_path("/abs/%-5j%", f, "/w", ""), "/abs/%-5j%");
  EXPECT_EQ(expand_output_path("", f, "/w", "/fallback"), "/fallback");
  // A task of array 7800, index 7: %A is the array's id, %a the index; %j stays the task's.
  const OutputNameFields task{JobId(7819), "root", "pat", "vm", JobId(7800), 7};
  EXPECT_EQ(expand_output_path("r_%A_%a_%j_%3a.out", task, "/w", ""), "/w/r_7800_7_7819_007.out");
}

TEST(LaunchEnvironmentTest, ArrayTasksGetSlurmArrayVariables) {
  LaunchRequest r = sample();
  auto plain = build_job_environment(r, alice());
  ASSERT_TRUE(plain);
  EXPECT_EQ(value_of(*plain, "SLURM_ARRAY_JOB_ID"), "<unset>");
  EXPECT_EQ(value_of(*plain, "SLURM_ARRAY_TASK_ID"), "<unset>");
  r.array = ArrayTaskFacts{JobId(20), 5, 4, 1, 7, 2};
  auto env = build_job_environment(r, alice());
  ASSERT_TRUE(env);
  EXPECT_EQ(value_of(*env, "SLURM_JOB_ID"), "31");
  EXPECT_EQ(value_of(*env, "SLURM_ARRAY_JOB_ID"), "20");
  EXPECT_EQ(value_of(*env, "SLURM_ARRAY_TASK_ID"), "5");
  EXPECT_EQ(value_of(*env, "SLURM_ARRAY_TASK_COUNT"), "4");
  EXPECT_EQ(value_of(*env, "SLURM_ARRAY_TASK_MIN"), "1");
  EXPECT_EQ(value_of(*env, "SLURM_ARRAY_TASK_MAX"), "7");
  EXPECT_EQ(value_of(*env, "SLURM_ARRAY_TASK_STEP"), "2");
  // The names of its output follow the task.
  r.program.stdout_path = "out_%A_%a.txt";
  auto paths = resolve_output_paths(r);
  ASSERT_TRUE(paths);
  EXPECT_EQ(paths->stdout_path, "/home/alice/run/out_20_5.txt");
}

TEST(LaunchEnvironmentTest, OutputPathsDefaultExpandAndResolve) {
  LaunchRequest r = sample();
  auto paths = resolve_output_paths(r);
  ASSERT_TRUE(paths);
  EXPECT_EQ(paths->stdout_path, "/home/alice/run/fairway-31.out");
  EXPECT_TRUE(paths->shared());
  r.program.stdout_path = "out/%j.log";
  r.program.stderr_path = "/scratch/%j-%%j.err";
  paths = resolve_output_paths(r);
  ASSERT_TRUE(paths);
  EXPECT_EQ(paths->stdout_path, "/home/alice/run/out/31.log");
  EXPECT_EQ(paths->stderr_path, "/scratch/31-%j.err");
  EXPECT_FALSE(paths->shared());
  r.program.stderr_path = "";
  paths = resolve_output_paths(r);
  ASSERT_TRUE(paths);
  EXPECT_EQ(paths->stderr_path, "/home/alice/run/out/31.log");
  r.program.working_dir = "";
  EXPECT_FALSE(resolve_output_paths(r));
}

}  // namespace
}  // namespace fairway::agent
