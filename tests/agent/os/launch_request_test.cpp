#include "agent/os/launch_request.h"

#include <gtest/gtest.h>

#include <sched.h>
#include <string>

namespace fairway::agent {
namespace {

TEST(LaunchRequestTest, CarriesTheCoordinatorsLaunchJob) {
  wire::LaunchJob launch;
  launch.job = JobId(88);
  launch.user = "bob";
  launch.account = "astro";
  launch.name = "sim";
  launch.program.argv = {"/bin/true"};
  launch.program.working_dir = "/home/bob";
  launch.cores = {3, 4};
  launch.gpus = {1};
  launch.time_limit = Duration::minutes(5);
  const LaunchRequest r = launch_request_from(launch, "node07");
  EXPECT_EQ(r.job, JobId(88));
  EXPECT_EQ(r.user, "bob");
  EXPECT_EQ(r.account, "astro");
  EXPECT_EQ(r.name, "sim");
  EXPECT_EQ(r.program, launch.program);
  EXPECT_EQ(r.cores, launch.cores);
  EXPECT_EQ(r.gpus, launch.gpus);
  EXPECT_EQ(r.nodelist, "node07");
  EXPECT_EQ(r.node_name, "node07");
  EXPECT_EQ(r.nnodes, 1);
  EXPECT_EQ(r.tasks, TaskLayout{});  // none given: sbatch sets no SLURM_NTASKS
  EXPECT_TRUE(r.bind_pus.empty());
  EXPECT_FALSE(r.append_output);

  launch.partition = "gpu";
  launch.restarts = 1;  // a requeued job's next run keeps the earlier run's output
  const LaunchRequest again = launch_request_from(launch, "node07");
  EXPECT_EQ(again.partition, "gpu");
  EXPECT_TRUE(again.append_output);

  launch.restarts = 0;
  launch.program.open_append = true;  // --open-mode=append on a first run
  EXPECT_TRUE(launch_request_from(launch, "node07").append_output);
}

// Each refusal names the job, the field and the value, and a well-formed request passes.
TEST(LaunchRequestTest, ValidationNamesTheFieldAndTheValue) {
  LaunchRequest good;
  good.job = JobId(5);
  good.program.argv = {"/bin/true"};
  good.nodelist = "n1";
  good.nnodes = 1;
  ASSERT_TRUE(validate_launch_request(good));

  const auto refusal = [](LaunchRequest r) {
    const Status st = validate_launch_request(r);
    EXPECT_FALSE(st);
    if (st) return std::string();
    EXPECT_EQ(st.error().code, ErrorCode::kInvalidArgument);
    EXPECT_EQ(st.error().message.rfind("job 5: ", 0), 0u) << st.error().message;
    return st.error().message;
  };
  LaunchRequest r = good;
  r.program.argv = {"/bin/echo", std::string("a\0b", 3)};
  EXPECT_NE(refusal(r).find("argv entry"), std::string::npos);
  r = good;
  r.program.argv = {""};
  EXPECT_NE(refusal(r).find("argv[0] is empty"), std::string::npos);
  r = good;
  r.program.working_dir = std::string("/tmp\0x", 6);
  EXPECT_NE(refusal(r).find("contains a NUL byte"), std::string::npos);
  r = good;
  r.nnodes = 0;
  EXPECT_NE(refusal(r).find("nnodes 0 < 1"), std::string::npos);
  r = good;
  r.nnodes = 2;
  r.node_cores = {4};
  EXPECT_NE(refusal(r).find("node_cores has 1 entries for 2 nodes"), std::string::npos);
  r = good;
  r.bind_pus = {0, -1};
  EXPECT_NE(refusal(r).find("bind_pus: PU -1 is outside"), std::string::npos);
  r = good;
  r.bind_pus = {CPU_SETSIZE};
  EXPECT_NE(refusal(r).find("PU " + std::to_string(CPU_SETSIZE)), std::string::npos);
}

}  // namespace
}  // namespace fairway::agent
