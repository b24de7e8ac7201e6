#include "client/fairway/report_commands.h"
#include "client/views/slurm/scontrol_node_view.h"
#include "client/views/slurm/sdiag_view.h"
#include "client/views/text_format.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/client/cli_test_views.h"

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
      {"fairway_jobs",
       "gauge",
       "",
       {{"", {{"state", "pending"}, {"partition", "a"}}, 2},
        {"", {{"state", "pending"}, {"partition", "b"}}, 1},
        {"", {{"state", "running"}, {"partition", "a"}}, 5}}},
      {"fairway_nodes", "gauge", "", {{"", {{"state", "up"}}, 3}, {"", {{"state", "down"}}, 1}}},
      {"fairway_rate_limited_total", "counter", "", {{"", {}, 7}}},
      {"fairway_messages_total",
       "counter",
       "",
       {{"", {{"type", "SubmitRequest"}}, 9}, {"", {{"type", "Heartbeat"}}, 0}}},
  };
  return m;
}

// sdiag's layout, line for line as Slurm 22.05's sdiag.c prints it (the lines it prints
// only once a scheduler has cycled, and "Cycles per minute" only past a minute, included
// here), from the coordinator's metrics. Monitoring exporters parse it by these labels.
TEST_F(Reports, SdiagIsSlurmsLayoutOverTheMetrics) {
  wire::MetricsReply m = sample_metrics();
  m.families.push_back(
      {"fairway_start_time_seconds", "gauge", "", {{"", {}, static_cast<double>(testing::kEpoch - 600)}}});
  m.families.push_back(
      {"fairway_last_pass_time_seconds", "gauge", "", {{"", {}, static_cast<double>(testing::kEpoch - 5)}}});
  m.families.push_back({"fairway_jobs_submitted_total", "counter", "", {{"", {}, 12}}});
  m.families.push_back({"fairway_jobs_started_total", "counter", "", {{"", {}, 8}}});
  m.families.push_back({"fairway_backfill_jobs_started_total", "counter", "", {{"", {}, 2}}});
  m.families.push_back({"fairway_pass_reservations_total", "counter", "", {{"", {}, 6}}});
  m.families.push_back({"fairway_last_pass_jobs_considered", "gauge", "", {{"", {}, 3}}});
  m.families.push_back({"fairway_jobs_ended_total",
                        "counter",
                        "",
                        {{"", {{"state", "completed"}}, 4},
                         {"", {{"state", "cancelled"}}, 1},
                         {"", {{"state", "failed"}}, 2}}});
  const std::string at = format_ctime(Time::from_seconds(testing::kEpoch));
  const std::string since = format_ctime(Time::from_seconds(testing::kEpoch - 600));
  const std::string last = format_ctime(Time::from_seconds(testing::kEpoch - 5));
  const std::string e = std::to_string(testing::kEpoch);
  EXPECT_EQ(
      render_sdiag(m, 25),
      "*******************************************************\n"
      "sdiag output at " +
          at + " (" + e +
          ")\n"
          "Data since      " +
          since + " (" + std::to_string(testing::kEpoch - 600) +
          ")\n"
          "*******************************************************\n"
          "Server thread count:  1\nAgent queue size:     0\nAgent count:          0\nAgent thread count:   "
          "0\n"
          "DBD Agent queue size: 0\n\n"
          "Jobs submitted: 12\nJobs started:   8\nJobs completed: 4\nJobs canceled:  1\nJobs failed:    2\n\n"
          "Job states ts:  " +
          at + " (" + e +
          ")\nJobs pending:   3\nJobs running:   5\n\n"
          "Main schedule statistics (microseconds):\n"
          "\tLast cycle:   500\n\tMax cycle:    2000\n\tTotal cycles: 4\n\tMean cycle:   1000\n"
          "\tMean depth cycle:  3\n\tCycles per minute: 0\n\tLast queue length: 3\n\n"
          "Backfilling stats\n"
          "\tTotal backfilled jobs (since last slurm start): 2\n"
          "\tTotal backfilled jobs (since last stats cycle start): 2\n"
          "\tTotal backfilled heterogeneous job components: 0\n"
          "\tTotal cycles: 4\n"
          "\tLast cycle when: " +
          last + " (" + std::to_string(testing::kEpoch - 5) +
          ")\n"
          "\tLast cycle: 500\n\tMax cycle:  2000\n\tMean cycle: 1000\n"
          "\tLast depth cycle: 3\n\tLast depth cycle (try sched): 3\n"
          "\tDepth Mean: 2\n\tDepth Mean (try depth): 2\n"
          "\tLast queue length: 3\n\tQueue length mean: 3\n\tLast table size: 0\n\tMean table size: 0\n\n"
          "Latency for 1000 calls to gettimeofday(): 25 microseconds\n\n"
          "Remote Procedure Call statistics by message type\n"
          "\tSubmitRequest                           (    8) count:9      ave_time:0      total_time:0\n\n"
          "Remote Procedure Call statistics by user\n\nPending RPC statistics\n\tNo pending RPCs\n");
  // Before the first pass: no means, and no last cycle.
  wire::MetricsReply fresh;
  fresh.now = Time::from_seconds(testing::kEpoch);
  const std::string text = render_sdiag(fresh, 7);
  EXPECT_NE(text.find("\tTotal cycles: 0\n\tLast queue length: 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\tLast cycle when: N/A\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("Mean"), std::string::npos) << text;
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
  EXPECT_NE(metrics_json(sample_metrics()).find("\"name\": \"fairway_pass_duration_seconds_sum\""),
            std::string::npos);
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
  for (const char* line :
       {"PartitionName: gpu\n", "Nodes: gpu-[01-03]\n", "NodesUp: 2/3\n", "Cores: 40/96 allocated\n",
        "MaxTime: 2-00:00:00\n", "PreemptMode: requeue\n", "Jobs: 4 waiting, 0 running\n",
        "Flags: socket_exclusive_gpus\n", "Default: NO\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing " << line << " in\n" << text;
  }
  wire::SharesReply s{
      Time::from_seconds(testing::kEpoch),
      "classic",
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

// A partition's access lists, in fairway's detail and in scontrol's line (a deny list in
// place of the allow list it excludes, as Slurm prints it); an open partition reads ALL.
TEST(ReportCommands, PartitionAccessListsShowInBothLayouts) {
  wire::PartitionView p;
  p.name = "condo";
  p.preempt = "off";
  EXPECT_NE(render_scontrol_partition(p).find("   AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL\n"),
            std::string::npos);
  p.allow_accounts = {"lab", "lab2"};
  p.allow_groups = {"condo"};
  p.deny_qos = {"long"};
  EXPECT_NE(render_scontrol_partition(p).find("   AllowGroups=condo AllowAccounts=lab,lab2 DenyQos=long\n"),
            std::string::npos)
      << render_scontrol_partition(p);
  const std::string text = render_partition_detail(p);
  for (const char* line : {"AllowAccounts: lab,lab2\n", "AllowGroups: condo\n", "DenyQos: long\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing " << line << " in\n" << text;
  }
  EXPECT_EQ(text.find("DenyAccounts"), std::string::npos);
}

}  // namespace
}  // namespace fairway::cli
