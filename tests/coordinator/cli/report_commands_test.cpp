#include "coordinator/cli/report_commands.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/coordinator/cli/cli_test_views.h"

namespace fairway::cli {
namespace {

class Reports : public ::testing::Test {
 protected:
  void SetUp() override { testing::use_utc(); }
};

wire::MetricsReply sample_metrics() {
  wire::MetricsReply m;
  m.now = Time::from_seconds(testing::kEpoch);
  m.families = {
      {"fairway_passes_total", "counter", "", {{"", {}, 4}}},
      {"fairway_pass_duration_seconds", "histogram", "", {{"_sum", {}, 0.004}, {"_count", {}, 4}}},
      {"fairway_last_pass_duration_seconds", "gauge", "", {{"", {}, 0.0005}}},
      {"fairway_max_pass_duration_seconds", "gauge", "", {{"", {}, 0.002}}},
      {"fairway_pass_jobs_considered_total", "counter", "", {{"", {}, 10}}},
      {"fairway_last_pass_reservations", "gauge", "", {{"", {}, 3}}},
      {"fairway_jobs", "gauge", "",
       {{"", {{"state", "pending"}, {"partition", "a"}}, 2}, {"", {{"state", "pending"}, {"partition", "b"}}, 1},
        {"", {{"state", "running"}, {"partition", "a"}}, 5}}},
      {"fairway_nodes", "gauge", "", {{"", {{"state", "up"}}, 3}, {"", {{"state", "down"}}, 1}}},
      {"fairway_rate_limited_total", "counter", "", {{"", {}, 7}}},
      {"fairway_messages_total", "counter", "",
       {{"", {{"type", "SubmitRequest"}}, 9}, {"", {{"type", "Heartbeat"}}, 0}}},
  };
  return m;
}

TEST_F(Reports, DiagSummarisesPassesJobsNodesAndMessages) {
  const std::string text = render_diag(sample_metrics());
  for (const char* line : {"Coordinator statistics at 2023-11-14T22:13:20\n",
                           "  duration last / mean / max:     0.500 ms / 1.000 ms / 2.000 ms\n",
                           "  jobs considered last / mean:    0 / 2.5\n",
                           "Jobs in the queue now:            pending 3, running 5\n",
                           "Nodes:                            down 1, up 3\n",
                           "(rate limit 7, unauthenticated 0)", "  SubmitRequest                   9\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing " << line << " in\n" << text;
  }
  EXPECT_EQ(text.find("Heartbeat"), std::string::npos) << "types never seen are left out";
  EXPECT_NE(metrics_json(sample_metrics()).find("\"name\": \"fairway_pass_duration_seconds_sum\""), std::string::npos);
}

TEST_F(Reports, PartitionDetailAndSharesTable) {
  wire::PartitionView p;
  p.name = "gpu";
  p.nodes = {"gpu-01", "gpu-02", "gpu-03"};
  p.nodes_up = 2;
  p.cores = 96;
  p.cores_used = 40;
  p.max_time = Duration::days(2);
  p.default_time = Duration::hours(1);
  p.preempt = "requeue";
  p.allocation_unit = "core";
  p.jobs_pending = 4;
  p.flags = {"socket_exclusive_gpus"};
  const std::string text = render_partition_detail(p);
  for (const char* line : {"PartitionName: gpu\n", "Nodes: gpu-[01-03]\n", "NodesUp: 2/3\n", "Cores: 40/96 allocated\n",
                           "MaxTime: 2-00:00:00\n", "PreemptMode: requeue\n", "Jobs: 4 waiting, 0 running\n",
                           "Flags: socket_exclusive_gpus\n", "Default: NO\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing " << line << " in\n" << text;
  }
  wire::SharesReply s{Time::from_seconds(testing::kEpoch), "classic",
                      {{"physics", "", 3, 0.75, 1000, 0.8, 0}, {"physics", "alice", 1, 0.375, 600, 0.48, 0.41}}};
  EXPECT_EQ(render_shares(s),
            "Fair-share algorithm: classic\n"
            "Account   User   RawShares  NormShares  RawUsage  EffectvUsage  FairShare\n"
            "physics          3          0.750000    1000      0.800000\n"
            " physics  alice  1          0.375000    600       0.480000      0.410000\n");
}

TEST_F(Reports, UnknownPartitionIsTheCoordinatorsRefusal) {
  const Transport t = [](const wire::Message&) -> Result<wire::Message> {
    return wire::ErrorReply{ErrorCode::kNotFound, "partition 'x' does not exist (partitions: batch)"};
  };
  std::ostringstream out, err;
  EXPECT_EQ(run_show_partition({"x"}, false, false, t, Output{out, err}), kExitFailure);
  EXPECT_NE(err.str().find("partition 'x' does not exist (partitions: batch)"), std::string::npos);
}

}  // namespace
}  // namespace fairway::cli
