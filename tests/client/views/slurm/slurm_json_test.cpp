// Slurm's JSON shapes on what the golden scenario does not compare by value: exit codes
// (Slurm 22.05's own are wrong there), a signalled batch script, a drained or down node,
// a waiting array's task list. The scenario checks keys, order and kinds against Slurm.
#include "client/views/slurm/slurm_json.h"

#include <gtest/gtest.h>

#include <csignal>
#include <nlohmann/json.hpp>

namespace fairway::cli {
namespace {

using nlohmann::json;

const GroupNameFn kGroups = [](std::uint32_t gid) {
  return gid == 100 ? std::string("users") : std::string();
};

wire::JobView ended(JobId id, JobState state, std::optional<std::int32_t> code,
                    std::optional<std::int32_t> sig) {
  wire::JobView j;
  j.id = id;
  j.name = "job";
  j.user = "alice";
  j.account = "science";
  j.partition = "main";
  j.state = state;
  j.submit_time = Time::from_seconds(1000);
  j.start_time = Time::from_seconds(1010);
  j.end_time = Time::from_seconds(1070);
  j.time_limit = Duration::minutes(10);
  j.allocation = {{"c2", {0, 1}, {}}};
  j.cores = 2;
  j.exit_code = code;
  j.signal = sig;
  j.gid = 100;
  return j;
}

TEST(SlurmJson, SacctWritesEachJobsOwnOutcomeAndItsScriptsSignal) {
  const wire::JobView failed = ended(JobId(7), JobState::kFailed, 3, std::nullopt);
  wire::JobView cancelled = ended(JobId(8), JobState::kCancelled, std::nullopt, std::nullopt);
  cancelled.state_reason = "cancelled by bob (uid 1002)";
  wire::JobView script = cancelled;
  script.signal = SIGTERM;
  const json out = json::parse(sacct_json({failed, cancelled}, {{}, {{"batch", script}}}, "acct", kGroups));
  const json& f = out["jobs"][0];
  EXPECT_EQ(f["exit_code"], json({{"status", "FAILED"}, {"return_code", 3}}));
  EXPECT_EQ(f["state"]["current"], "FAILED");
  EXPECT_EQ(f["time"]["elapsed"], 60);
  EXPECT_EQ(f["time"]["limit"], 10);
  EXPECT_EQ(f["group"], "users");
  EXPECT_EQ(f["kill_request_user"], nullptr);
  EXPECT_EQ(f["steps"], json::array());
  const json& c = out["jobs"][1];
  EXPECT_EQ(c["kill_request_user"], "bob");
  EXPECT_EQ(c["exit_code"]["status"], "SUCCESS") << "the job line's is 0:0; the signal is its script's";
  ASSERT_EQ(c["steps"].size(), 1u);
  EXPECT_EQ(c["steps"][0]["step"]["id"], "batch");
  EXPECT_EQ(c["steps"][0]["exit_code"], json({{"status", "SIGNALED"},
                                              {"return_code", nullptr},
                                              {"signal", {{"signal_id", 15}, {"name", "Terminated"}}}}));
  EXPECT_EQ(out["meta"]["plugin"]["type"], "openapi/dbv0.0.38");
}

TEST(SlurmJson, SqueueGivesAWaitingArraysTasksAndARunningJobsCoresBySocket) {
  wire::JobQueryReply reply;
  reply.now = Time::from_seconds(2000);
  wire::JobView array = ended(JobId(40), JobState::kPending, std::nullopt, std::nullopt);
  array.start_time.reset();
  array.end_time.reset();
  array.allocation.clear();
  array.array_job = JobId(40);
  array.array_tasks = "[5-100%10]";
  array.reasons = {"Priority"};
  wire::JobView running = ended(JobId(41), JobState::kRunning, std::nullopt, std::nullopt);
  running.end_time.reset();
  running.allocation = {{"c2", {0, 5}, {}}};
  reply.jobs = {array, running};
  wire::NodeView c2;
  c2.name = "c2";
  c2.sockets = 2;
  c2.cores = 8;
  const json out = json::parse(squeue_json(reply, "acct", {c2}, kGroups));
  const json& a = out["jobs"][0];
  EXPECT_EQ(a["array_task_id"], nullptr);
  EXPECT_EQ(a["array_task_string"], "5-100%10");
  EXPECT_EQ(a["array_max_tasks"], 10);
  EXPECT_EQ(a["state_reason"], "Priority");
  EXPECT_FALSE(a.contains("job_resources"));
  const json& r = out["jobs"][1];
  EXPECT_EQ(r["end_time"], 1010 + 600) << "a running job ends when its limit runs out";
  EXPECT_EQ(r["job_resources"]["allocated_nodes"][0]["sockets"],
            json({{"0", {{"cores", {{"0", "allocated"}}}}}, {"1", {{"cores", {{"1", "allocated"}}}}}}));
  EXPECT_EQ(r["tres_alloc_str"], "cpu=2,node=1,billing=2");
}

TEST(SlurmJson, SinfoSaysADrainedNodeIsIdleWithTheFlagAndWhoDrainedIt) {
  wire::NodeQueryReply nodes;
  wire::NodeView drained;
  drained.name = "c2";
  drained.state = "drained";
  drained.sockets = 1;
  drained.cores = 16;
  drained.reason = "disk check";
  drained.reason_user = "root";
  drained.reason_time = Time::from_seconds(1'795'690'000);
  wire::NodeView down = drained;
  down.name = "c3";
  down.state = "down";
  down.reason = "no heartbeat for 40 s";
  down.cores_used = 4;
  nodes.nodes = {drained, down};
  const json out = json::parse(sinfo_json(nodes));
  EXPECT_EQ(out["nodes"][0]["state"], "idle");
  EXPECT_EQ(out["nodes"][0]["state_flags"], json::array({"DRAIN"}));
  EXPECT_EQ(out["nodes"][0]["reason_set_by_user"], "root");
  EXPECT_EQ(out["nodes"][0]["reason_changed_at"], 1'795'690'000);
  EXPECT_EQ(out["nodes"][0]["tres_used"], nullptr);
  EXPECT_EQ(out["nodes"][1]["state"], "down");
  EXPECT_EQ(out["nodes"][1]["idle_cpus"], 12);
}

}  // namespace
}  // namespace fairway::cli
