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
  r.nodelist = "gpu[01-02]";
  r.nnodes = 2;
  r.ntasks = 6;
  return r;
}

JobUser alice() { return JobUser{"alice", 1000, 1000, "/home/alice", "/bin/bash", {1000}}; }

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
  EXPECT_EQ(value_of(*env, "SLURM_CPUS_ON_NODE"), "3");
  EXPECT_EQ(value_of(*env, "SLURM_SUBMIT_DIR"), "/home/alice/run");
  EXPECT_EQ(value_of(*env, "SLURM_JOB_USER"), "alice");
  EXPECT_EQ(value_of(*env, "SLURM_JOB_ACCOUNT"), "chem");
  EXPECT_EQ(value_of(*env, "SLURM_JOB_PARTITION"), "gpu");
  EXPECT_EQ(value_of(*env, "HOME"), "/home/alice");
  EXPECT_EQ(value_of(*env, "USER"), "alice");
  EXPECT_EQ(value_of(*env, "PATH"), "/usr/local/bin:/usr/bin:/bin");
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
  EXPECT_EQ(std::count_if(env->begin(), env->end(),
                          [](const std::string& e) { return e.starts_with("FOO="); }),
            1);
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
