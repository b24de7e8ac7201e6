// sprio's and sshare's tables from Fairway's replies: which of Fairway's terms land in
// which of Slurm's columns, and which lines sshare shows for whom (the layouts themselves
// are checked against Slurm's output in slurm_golden_test).
#include "client/views/slurm/slurm_report_views.h"

#include <gtest/gtest.h>

namespace fairway::cli {
namespace {

wire::JobView waiting(std::uint64_t id, double priority, std::vector<wire::PriorityFactor> factors) {
  wire::JobView j;
  j.id = JobId(id);
  j.user = "alice";
  j.partition = "a-very-long-partition";
  j.priority = priority;
  j.priority_factors = std::move(factors);
  return j;
}

TEST(SprioView, FairwaysTermsFillSlurmsColumnsAndTheRestGoToSite) {
  wire::JobQueryReply reply;
  reply.jobs = {waiting(7, 1500.4, {{"age", 100.4}, {"expansion", 900}, {"bypass", 100}, {"size", 400}}),
                waiting(8, 2000, {{"age", 2000}, {"expansion", 0}, {"bypass", 0}, {"size", 0}})};
  const std::string out = render_sprio(reply, SprioLayout{});
  EXPECT_EQ(out,
            "          JOBID PARTITION   PRIORITY       SITE        AGE    JOBSIZE\n"
            "              8 a-very-lo       2000          0       2000          0\n"
            "              7 a-very-lo       1500       1000        100        400\n")
      << "highest first; no FAIRSHARE, PARTITION or QOS column: the profile does not weigh them";
  const std::string user = render_sprio(reply, SprioLayout{false, true, false});
  EXPECT_EQ(user.substr(0, user.find('\n')),
            "              8 a-very-lo    alice       2000          0       2000          0");
  const std::string wide = render_sprio(reply, SprioLayout{true, false, true});
  EXPECT_EQ(
      wide.substr(0, wide.find('\n')),
      "          JOBID PARTITION     USER   PRIORITY       SITE        AGE      ASSOC  FAIRSHARE    JOBSIZE  "
      "PARTITION        QOS        NICE                 TRES");
}

TEST(SshareView, WithoutAllUsersOnlyTheCallersLinesAndTheirAccounts) {
  wire::SharesReply reply;
  reply.rows = {{"bio", "", 1, 0.25, 30, 0.3, 0},
                {"bio", "bob", 1, 0.25, 30, 0.3, 0.4},
                {"phys", "", 3, 0.75, 70, 0.7, 0},
                {"phys", "alice", 1, 0.375, 50, 0.5, 0.6},
                {"phys", "carol", 1, 0.375, 20, 0.2, 0.9}};
  // What the coordinator answers alice without -a: her accounts' lines and her own.
  wire::SharesReply hers;
  hers.rows = {reply.rows[2], reply.rows[3]};
  SshareLayout mine;
  mine.parsable = true;
  EXPECT_EQ(render_sshare(hers, mine),
            "Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare\n"
            "root|||0.000000|100|1.000000|\n"
            " phys||3|0.750000|70|0.700000|\n"
            "  phys|alice|1|0.375000|50|0.500000|0.600000\n");
  SshareLayout all;
  all.every_account = true;
  all.from_accounts = true;
  all.header = false;
  all.trailing_bar = true;
  const std::string every = render_sshare(reply, all);
  EXPECT_EQ(every,
            "bio||1|0.250000|30|0.300000||\n"
            " bio|bob|1|0.250000|30|0.300000|0.400000|\n"
            "phys||3|0.750000|70|0.700000||\n"
            " phys|alice|1|0.375000|50|0.500000|0.600000|\n"
            " phys|carol|1|0.375000|20|0.200000|0.900000|\n");
}

// A running batch job on two nodes: its step 0 ended, its step 1 runs.
wire::JobView job_with_steps() {
  wire::JobView job;
  job.id = JobId(42);
  job.name = "sim";
  job.user = "alice";
  job.uid = 1001;
  job.partition = "main";
  job.state = JobState::kRunning;
  job.start_time = Time::from_seconds(9'000);
  job.allocation = {{"n1", {0, 1}, {}}, {"n2", {0, 1}, {}}};
  job.steps = {
      {0, "prep", JobState::kCompleted, Time::from_seconds(9'010), Time::from_seconds(9'020), 0, 0, 1, 1},
      {1, "a.out", JobState::kRunning, Time::from_seconds(9'400), std::nullopt, 0, 0, 4, 2}};
  return job;
}

TEST(SqueueStepsView, RunningStepsThenTheBatchScriptOfEachRunningJob) {
  wire::JobQueryReply reply;
  reply.now = Time::from_seconds(10'000);
  const wire::JobView job = job_with_steps();
  wire::JobView allocation = job;  // salloc's: no batch script
  allocation.id = JobId(7);
  allocation.interactive = true;
  allocation.steps = {};
  reply.jobs = {job, allocation};
  EXPECT_EQ(render_squeue_steps(reply, true),
            "         STEPID     NAME PARTITION     USER      TIME NODELIST\n"
            "           42.1    a.out      main    alice     10:00 n[1-2]\n"
            "       42.batch    batch      main    alice     16:40 n1\n");
}

TEST(ScontrolStepsView, EachRunningStepAsAKeyValueBlockOrOnlyTheOneAskedFor) {
  wire::JobQueryReply reply;
  reply.jobs = {job_with_steps()};
  const std::string all = render_scontrol_steps(reply, "");
  EXPECT_EQ(all.find("StepId=42.batch UserId=1001 "), 0u) << all;
  EXPECT_NE(all.find("StepId=42.1 "), std::string::npos) << all;
  EXPECT_EQ(all.find("StepId=42.0 "), std::string::npos) << "ended steps are not listed";
  const std::string one = render_scontrol_steps(reply, "1");
  EXPECT_EQ(one.find("StepId=42.batch"), std::string::npos);
  EXPECT_NE(one.find("   State=RUNNING Partition=main NodeList=n[1-2]\n"
                     "   Nodes=2 CPUs=4 Tasks=4 Name=a.out Network=(null)\n"
                     "   TRES=cpu=4,mem=0,node=2\n"),
            std::string::npos)
      << one;
  EXPECT_NE(one.find("Dist=Block"), std::string::npos) << "more tasks than nodes";
  EXPECT_EQ(render_scontrol_steps(reply, "7"), "");
}

}  // namespace
}  // namespace fairway::cli
