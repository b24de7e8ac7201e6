#include "client/views/slurm/scontrol_job_view.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "tests/client/temp_dir.h"

namespace fairway::cli {
namespace {

// Slurm 22.05's scontrol show job for the same job (the anchor: sbatch -N1 -n2 -t 10),
// field for field; the ids, names and times are this job's. QOS is "normal", Slurm's
// default QOS, as a cluster with accounting shows it (the anchor without one says (null)).
TEST(ScontrolJobView, RunningJobHasSlurmsKeysInSlurmsPlaces) {
  ::setenv("TZ", "UTC", 1);
  wire::JobView j;
  j.id = JobId(25442);
  j.name = "wrap";
  j.user = "root";
  j.uid = 0;
  j.gid = 0;
  j.partition = "batch";
  j.state = JobState::kRunning;
  j.priority = 1053;
  j.submit_time = Time::from_seconds(1'795'669'871);
  j.start_time = j.submit_time;
  j.time_limit = Duration::minutes(10);
  j.cores = 2;
  j.ntasks = 2;
  j.allocation = {{"vm", {0, 1}, {}}};
  j.working_dir = "/tmp";
  j.stdout_path = "/tmp/slurm-25442.out";
  const std::string text = render_scontrol_job(j, j.submit_time + Duration::seconds(2),
                                               [](std::uint32_t) { return std::string("root"); });
  EXPECT_EQ(text,
            "JobId=25442 JobName=wrap\n"
            "   UserId=root(0) GroupId=root(0) MCS_label=N/A\n"
            "   Priority=1053 Nice=0 Account=(null) QOS=normal\n"
            "   JobState=RUNNING Reason=None Dependency=(null)\n"
            "   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0\n"
            "   RunTime=00:00:02 TimeLimit=00:10:00 TimeMin=N/A\n"
            "   SubmitTime=2026-11-26T05:11:11 EligibleTime=2026-11-26T05:11:11\n"
            "   AccrueTime=2026-11-26T05:11:11\n"
            "   StartTime=2026-11-26T05:11:11 EndTime=2026-11-26T05:21:11 Deadline=N/A\n"
            "   SuspendTime=None SecsPreSuspend=0 LastSchedEval=2026-11-26T05:11:11 Scheduler=Main\n"
            "   Partition=batch AllocNode:Sid=(null)\n"
            "   ReqNodeList=(null) ExcNodeList=(null)\n"
            "   NodeList=vm\n"
            "   BatchHost=vm\n"
            "   NumNodes=1 NumCPUs=2 NumTasks=2 CPUs/Task=1 ReqB:S:C:T=0:0:*:*\n"
            "   TRES=cpu=2,node=1,billing=2\n"
            "   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*\n"
            "   MinCPUsNode=1 MinMemoryNode=0 MinTmpDiskNode=0\n"
            "   Features=(null) DelayBoot=00:00:00\n"
            "   OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null)\n"
            "   Command=(null)\n"
            "   WorkDir=/tmp\n"
            "   StdErr=/tmp/slurm-25442.out\n"
            "   StdIn=/dev/null\n"
            "   StdOut=/tmp/slurm-25442.out\n"
            "   Power=\n"
            "   \n\n");
}

// Snakemake reads JobState= and ExitCode= of a finished job; a waiting one has no nodes.
TEST(ScontrolJobView, FinishedAndWaitingJobs) {
  wire::JobView j;
  j.id = JobId(7);
  j.user = "alice";
  j.state = JobState::kFailed;
  j.exit_code = 3;
  j.submit_time = Time::from_seconds(1'700'000'000);
  j.start_time = Time::from_seconds(1'700'000'010);
  j.end_time = Time::from_seconds(1'700'000'070);
  j.allocation = {{"cn01", {0}, {}}, {"cn02", {0}, {0}}};
  const std::string done = render_scontrol_job(j, *j.end_time, [](std::uint32_t) { return std::string(); });
  EXPECT_NE(done.find("JobState=FAILED Reason=None"), std::string::npos) << done;
  EXPECT_NE(done.find("ExitCode=3:0"), std::string::npos) << done;
  EXPECT_NE(done.find("RunTime=00:01:00"), std::string::npos) << done;
  EXPECT_NE(done.find("NodeList=cn[01-02]"), std::string::npos) << done;
  EXPECT_NE(done.find("TRES=cpu=2,node=2,billing=2,gres/gpu=1"), std::string::npos) << done;
  j.state = JobState::kPending;
  j.allocation.clear();
  j.start_time.reset();
  j.end_time.reset();
  j.reasons = {"Priority"};
  const std::string waiting =
      render_scontrol_job(j, Time::from_seconds(1'700'000'100), [](std::uint32_t) { return std::string(); });
  EXPECT_NE(waiting.find("JobState=PENDING Reason=Priority"), std::string::npos) << waiting;
  EXPECT_NE(waiting.find("NodeList=(null)\n"), std::string::npos) << waiting;
  EXPECT_EQ(waiting.find("BatchHost="), std::string::npos) << waiting;
  EXPECT_EQ(waiting.find("PredictedRunTime="), std::string::npos) << "only with predictions: " << waiting;
}

// scheduler.runtime_prediction: Fairway's own line after StartTime, the run planned and the
// start were every job planned by its limit (docs/slurm-compat.md).
// The request's own fields, as twonode.sh's Slurm showed them (rows tpn2, N2tpn2c2, excl,
// w_both, x_vm, C_sky, norequeue, mail_begin_end, mail_all, mpc500, mem1G, excl).
TEST(ScontrolJobView, WhatTheJobAskedForAsSlurmShowsIt) {
  wire::JobView j;
  j.id = JobId(7);
  j.name = "job.sh";
  j.user = "nobody";
  j.state = JobState::kPending;
  j.nodes = 2;
  j.cores = 4;
  j.ntasks_per_node = 2;
  j.cpus_per_task = 2;
  j.exclusive = true;
  j.req_nodes = {"vm", "vm1"};
  j.exc_nodes = {"vm2"};
  j.features = "skylake";
  j.no_requeue = true;
  j.mail_events = kMailBegin | kMailEnd;
  j.memory_per_node_mb = 1024;
  const std::string out = render_scontrol_job(j, Time::from_seconds(0), [](std::uint32_t) { return ""; });
  for (const char* want :
       {" NumTasks=4 ", " NtasksPerN:B:S:C=2:0:*:* ", " MinCPUsNode=4 ", " MinMemoryNode=1G ",
        " OverSubscribe=NO ", " ReqNodeList=vm,vm1 ", " ExcNodeList=vm2\n", " Features=skylake ",
        " Requeue=0 ", " MailUser=nobody MailType=BEGIN,END\n"}) {
    EXPECT_NE(out.find(want), std::string::npos) << want << " in\n" << out;
  }
  j = wire::JobView{};
  j.user = "nobody";
  j.memory_per_cpu_mb = 500;
  j.mail_events = kMailBegin | kMailEnd | kMailFail | kMailRequeue;
  j.mail_user = "a@example.org";
  const std::string all = render_scontrol_job(j, Time::from_seconds(0), [](std::uint32_t) { return ""; });
  for (const char* want :
       {" MinMemoryCPU=500M ", " NumTasks=1 ", " OverSubscribe=OK ", " ReqNodeList=(null) ", " Requeue=1 ",
        "MailUser=a@example.org MailType=INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT\n"}) {
    EXPECT_NE(all.find(want), std::string::npos) << want << " in\n" << all;
  }
  EXPECT_EQ(all.find("MinMemoryNode"), std::string::npos);
  // The GPU request as asked (cpg4, mpg, gpt1_n2, N2gres1 on twonode.sh).
  j = wire::JobView{};
  j.gpus = 1;
  j.memory_per_node_mb = 1000;
  j.gpu_ask = GpuAsk{GpuAskedPer::kJob, 1, 4, 1000};
  const std::string gpus = render_scontrol_job(j, Time::from_seconds(0), [](std::uint32_t) { return ""; });
  EXPECT_NE(
      gpus.find("   Power=\n   CpusPerTres=gres:gpu:4 MemPerTres=gres:gpu:1000 TresPerJob=gres:gpu:1\n"),
      std::string::npos)
      << gpus;
  EXPECT_NE(gpus.find(" MinMemoryNode=0 "), std::string::npos) << gpus;  // memory is per GPU
  j.gpu_ask = GpuAsk{GpuAskedPer::kTask, 1};
  EXPECT_NE(render_scontrol_job(j, Time::from_seconds(0), [](std::uint32_t) { return ""; })
                .find(" TresPerTask=gres:gpu:1\n"),
            std::string::npos);
  j.gpu_type = "v100";
  j.gpu_ask = GpuAsk{GpuAskedPer::kNode, 2};
  EXPECT_NE(render_scontrol_job(j, Time::from_seconds(0), [](std::uint32_t) { return ""; })
                .find(" TresPerNode=gres:gpu:v100:2\n"),
            std::string::npos);
}

TEST(ScontrolJobView, PredictionsAddTheirOwnLine) {
  ::setenv("TZ", "UTC", 1);
  wire::JobView j;
  j.id = JobId(8);
  j.user = "alice";
  j.state = JobState::kPending;
  j.submit_time = Time::from_seconds(1'700'000'000);
  j.estimated_start = Time::from_seconds(1'700'000'600);
  j.predicted_runtime = Duration::minutes(15);
  j.estimated_start_by_limit = Time::from_seconds(1'700'003'600);
  const auto no_group = [](std::uint32_t) { return std::string(); };
  const std::string waiting = render_scontrol_job(j, j.submit_time, no_group);
  EXPECT_NE(waiting.find("   StartTime=2023-11-14T22:23:20 EndTime=Unknown Deadline=N/A\n"
                         "   PredictedRunTime=00:15:00 StartTimeByLimit=2023-11-14T23:13:20\n"),
            std::string::npos)
      << waiting;
  j.estimated_start_by_limit.reset();
  EXPECT_NE(render_scontrol_job(j, j.submit_time, no_group).find("StartTimeByLimit=Unknown\n"),
            std::string::npos);
  j.state = JobState::kRunning;
  j.start_time = j.estimated_start;
  const std::string running = render_scontrol_job(j, j.submit_time, no_group);
  EXPECT_NE(running.find("   PredictedRunTime=00:15:00\n"), std::string::npos) << running;
}

TEST(ScontrolJobView, GroupNamesComeFromTheGroupFile) {
  testing::TempDir dir;
  const std::string path = dir.write("group", "root:x:0:\nusers:x:100:alice,bob\nbroken line\n");
  EXPECT_EQ(group_name_from_file(100, path), "users");
  EXPECT_EQ(group_name_from_file(0, path), "root");
  EXPECT_EQ(group_name_from_file(4242, path), "");
}

}  // namespace
}  // namespace fairway::cli
