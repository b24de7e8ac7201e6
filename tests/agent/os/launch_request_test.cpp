#include "agent/os/launch_request.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace fairway::agent
