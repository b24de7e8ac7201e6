#include "client/views/fairway/json_output.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/client/cli_test_views.h"

namespace fairway::cli {
namespace {

using nlohmann::json;

TEST(JsonOutput, QueueShape) {
  const json j = json::parse(jobs_json(testing::queue_reply()));
  EXPECT_EQ(j["now"], testing::kEpoch + 3723);
  ASSERT_EQ(j["jobs"].size(), 3u);
  const json& running = j["jobs"][0];
  EXPECT_EQ(running["id"], 101);
  EXPECT_EQ(running["state"], "running");
  EXPECT_EQ(running["state_code"], "R");
  EXPECT_EQ(running["start_time"], testing::kEpoch + 60);
  EXPECT_TRUE(running["end_time"].is_null());
  EXPECT_EQ(running["time_limit"], 7200);
  EXPECT_EQ(running["allocation"][1]["node"], "gpu-02");
  EXPECT_EQ(running["allocation"][1]["cores"], json({8, 9, 10, 11}));
  EXPECT_EQ(running["priority"], 1500.25);
  EXPECT_EQ(running["priority_factors"]["fairshare"], 1000.25);
  EXPECT_TRUE(running["exit_code"].is_null());

  const json& pending = j["jobs"][1];
  EXPECT_EQ(pending["reasons"][0]["code"], "Resources");
  EXPECT_EQ(pending["reasons"][1]["text"], "Job 101 has higher priority.");
  EXPECT_EQ(pending["estimated_start"], testing::kEpoch + 7200);

  const json& failed = j["jobs"][2];
  EXPECT_EQ(failed["exit_code"], 139);
  EXPECT_EQ(failed["signal"], 11);
  EXPECT_TRUE(failed["time_limit"].is_null());  // unlimited
  EXPECT_EQ(failed["requeue_count"], 2);
}

TEST(JsonOutput, EveryJobViewFieldIsPresent) {
  const json j = json::parse(job_json(testing::running_job()));
  for (const char* key : {"id",          "name",         "user",        "account",
                          "partition",   "qos",          "state",       "reasons",
                          "submit_time", "start_time",   "end_time",    "estimated_start",
                          "time_limit",  "nodes",        "cores",       "gpus",
                          "gpu_type",    "allocation",   "priority",    "priority_factors",
                          "exit_code",   "signal",       "working_dir", "stdout_path",
                          "stderr_path", "requeue_count"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
}

TEST(JsonOutput, NodesShape) {
  const json j = json::parse(nodes_json(wire::NodeQueryReply{{testing::gpu_node(), testing::down_node()}}));
  ASSERT_EQ(j["nodes"].size(), 2u);
  EXPECT_EQ(j["nodes"][0]["name"], "gpu-01");
  EXPECT_EQ(j["nodes"][0]["cores_used"], 4);
  EXPECT_EQ(j["nodes"][0]["gpu_types"].size(), 4u);
  EXPECT_EQ(j["nodes"][0]["last_heartbeat"], testing::kEpoch);
  EXPECT_EQ(j["nodes"][0]["jobs"], json({101}));
  EXPECT_TRUE(j["nodes"][1]["last_heartbeat"].is_null());
  EXPECT_EQ(j["nodes"][1]["reason"], "no heartbeat for 45 s");
  const json one = json::parse(node_json(testing::down_node()));
  EXPECT_EQ(one["state"], "down");
  EXPECT_EQ(one["memory_mb"], 0);
}

}  // namespace
}  // namespace fairway::cli
