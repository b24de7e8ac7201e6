#include <gtest/gtest.h>

#include "client/views/fairway/job_views.h"
#include "client/views/fairway/node_views.h"
#include "client/views/text_format.h"
#include "tests/client/cli_test_views.h"

namespace fairway::cli {
namespace {

class Views : public ::testing::Test {
 protected:
  void SetUp() override { testing::use_utc(); }
};

TEST_F(Views, TimesAndSpans) {
  EXPECT_EQ(format_local_time(Time::from_seconds(testing::kEpoch)), "2023-11-14T22:13:20");
  EXPECT_EQ(format_local_time(Time::never()), "N/A");
  EXPECT_EQ(format_elapsed(Duration::seconds(0)), "0:00");
  EXPECT_EQ(format_elapsed(Duration::seconds(65)), "1:05");
  EXPECT_EQ(format_elapsed(Duration::seconds(3723)), "1:02:03");
  EXPECT_EQ(format_elapsed(Duration::days(2) + Duration::seconds(5)), "2-00:00:05");
  EXPECT_EQ(format_elapsed(Duration::seconds(-4)), "0:00");
  EXPECT_EQ(format_number(1500.25), "1500.25");
  EXPECT_EQ(format_number(2.0), "2");
  EXPECT_EQ(format_number(-0.00001), "0");
}

TEST_F(Views, StateCodesAreSlurms) {
  const std::vector<std::string> expected = {"PD", "H",  "BL", "R",  "CG", "CD", "F",
                                             "CA", "TO", "PR", "RQ", "NF", "OOM"};
  for (int s = 0; s <= static_cast<int>(kLastJobState); ++s) {
    EXPECT_EQ(state_code(static_cast<JobState>(s)), expected[static_cast<std::size_t>(s)]);
  }
  EXPECT_EQ(state_name(JobState::kNodeFail), "NODE_FAIL");
}

TEST_F(Views, QueueTable) {
  const std::string expected =
      "JOBID  PARTITION  NAME   USER   ST  TIME     NODES  NODELIST(REASON)      START\n"
      "101    gpu        train  alice  R   1:01:03  2      gpu-01,gpu-02         2023-11-14T22:14:20\n"
      "102    batch      sweep  bob    PD  0:00     -      (Resources,Priority)  2023-11-15T00:13:20\n"
      "99     batch      crash  carol  F   1:00:00  1      cpu-07                2023-11-14T21:11:40\n";
  EXPECT_EQ(render_queue(testing::queue_reply()), expected);
}

TEST_F(Views, QueueCellsForEdgeCases) {
  wire::JobView held = testing::pending_job();
  held.state = JobState::kHeld;
  held.reasons.clear();
  held.estimated_start.reset();
  wire::JobQueryReply reply{Time::from_seconds(testing::kEpoch), {held}};
  const std::string table = render_queue(reply);
  EXPECT_NE(table.find("  H   "), std::string::npos) << table;
  EXPECT_NE(table.find("(None)"), std::string::npos) << table;
  EXPECT_NE(table.find("N/A"), std::string::npos) << table;
  EXPECT_EQ(render_queue(wire::JobQueryReply{}),
            "JOBID  PARTITION  NAME  USER  ST  TIME  NODES  NODELIST(REASON)  START\n");
}

TEST_F(Views, ShowPendingJobHasReasonsAndPriorityBreakdown) {
  wire::JobView j = testing::pending_job();
  j.priority_factors = {{"age", 2.5}, {"fairshare", 10}};
  const std::string text = render_job_detail(j, Time::from_seconds(testing::kEpoch));
  for (const char* line :
       {"JobId: 102\n", "State: PENDING (PD)\n", "Reason: Resources: Waiting for 64 cores to be free.\n",
        "Reason: Priority: Job 101 has higher priority.\n", "EstimatedStart: 2023-11-15T00:13:20\n",
        "StartTime: N/A\n", "TimeLimit: 00:30:00\n", "Nodes: any\n", "Cores: 64 in total\n",
        "Priority: 12.5\n", "  age: 2.5\n", "  fairshare: 10\n", "Account: (none)\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing " << line << " in\n" << text;
  }
}

TEST_F(Views, ShowJobWithPredictionsHasBothStarts) {
  wire::JobView j = testing::pending_job();
  EXPECT_EQ(render_job_detail(j, Time::from_seconds(testing::kEpoch)).find("Predicted"), std::string::npos);
  j.predicted_runtime = Duration::minutes(5);
  j.estimated_start_by_limit = *j.estimated_start + Duration::hours(1);
  const std::string text = render_job_detail(j, Time::from_seconds(testing::kEpoch));
  for (const char* line : {"EstimatedStart: 2023-11-15T00:13:20\n", "PredictedRuntime: 00:05:00\n",
                           "EstimatedStartByLimit: 2023-11-15T01:13:20\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing " << line << " in\n" << text;
  }
}

TEST_F(Views, ShowFinishedJobHasAllocationExitAndSignal) {
  const std::string text = render_job_detail(testing::failed_job(), Time::from_seconds(testing::kEpoch));
  for (const char* line :
       {"State: FAILED (F)\n", "Allocation: cpu-07: cores 5; gpus none\n", "ExitCode: 139\n", "Signal: 11\n",
        "TimeLimit: UNLIMITED\n", "RunTime: 1:00:00\n", "Requeues: 2\n", "EndTime: 2023-11-14T22:11:40\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing " << line << " in\n" << text;
  }
  EXPECT_EQ(text.find("EstimatedStart"), std::string::npos);
  const std::string running = render_job_detail(testing::running_job(), Time::from_seconds(testing::kEpoch));
  EXPECT_NE(running.find("Allocation: gpu-02: cores 8,9,10,11; gpus 1\n"), std::string::npos);
  EXPECT_NE(running.find("GPUs: 1 per node of type a100\n"), std::string::npos);
  EXPECT_NE(running.find("Memory: 4096 MiB per node\n"), std::string::npos);
  EXPECT_EQ(running.find("ExitCode"), std::string::npos);
}

TEST_F(Views, NodeTableAndDetail) {
  const std::string expected =
      "NODELIST  STATE  CPUS(A/T)  GPUS(A/T)  PARTITIONS  REASON\n"
      "gpu-01    mixed  4/64       1/4        gpu,batch\n"
      "cpu-07    down   0/32       0/0        batch       no heartbeat for 45 s\n";
  EXPECT_EQ(render_nodes(wire::NodeQueryReply{{testing::gpu_node(), testing::down_node()}}), expected);
  const std::string gpu = render_node_detail(testing::gpu_node());
  for (const char* line : {"NodeName: gpu-01\n", "GPUs: 1/4 allocated (a100,a100,a100,a100)\n",
                           "LastHeartbeat: 2023-11-14T22:13:20\n", "Jobs: 101\n",
                           "Memory: 64000/512000 MiB allocated\n", "ThreadsPerCore: 2\n"}) {
    EXPECT_NE(gpu.find(line), std::string::npos) << "missing " << line << " in\n" << gpu;
  }
  const std::string down = render_node_detail(testing::down_node());
  EXPECT_NE(down.find("Reason: no heartbeat for 45 s\n"), std::string::npos);
  EXPECT_NE(down.find("LastHeartbeat: never\n"), std::string::npos);
  EXPECT_NE(down.find("Jobs: (none)\n"), std::string::npos);
}

TEST_F(Views, PartitionSummaryCountsAllocatedIdleOtherAndTotal) {
  wire::NodeView idle = testing::gpu_node();
  idle.name = "gpu-02";
  idle.state = "idle";
  idle.cores_used = 0;
  idle.gpus_used = 0;
  wire::NodeView draining = testing::gpu_node();
  draining.name = "gpu-03";
  draining.state = "draining";
  const std::string expected =
      "PARTITION  NODES(A/I/O/T)  CPUS(A/I/O/T)  GPUS(A/I/O/T)  NODELIST\n"
      "batch      2/1/1/4         8/124/92/224   2/7/3/12       gpu-[01-03],cpu-07\n"
      "gpu        2/1/0/3         8/124/60/192   2/7/3/12       gpu-[01-03]\n";
  EXPECT_EQ(render_partition_summary(
                wire::NodeQueryReply{{testing::gpu_node(), idle, draining, testing::down_node()}}),
            expected);
}

}  // namespace
}  // namespace fairway::cli
