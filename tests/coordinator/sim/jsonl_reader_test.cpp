// JSONL workloads: mapping, defaults, and an error for every kind of bad value, each naming
// the file, the line and the key.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "coordinator/sim/workload.h"
#include "temp_dir_test_base.h"

namespace fairway::sim {
namespace {

namespace fs = std::filesystem;

class JsonlTest : public TempDirTest {
 protected:
  std::string write(const std::string& text) { return write_file("w.jsonl", text); }
};

constexpr const char* kGood = R"({"id": 1, "submit": 0, "user": "alice", "time_limit": 60, "runtime": 30})";

TEST_F(JsonlTest, MapsEveryKey) {
  const std::string path =
      write(R"({"id": 42, "submit": 100, "user": "bob", "account": "phys", "partition": "gpu",)"
            R"( "qos": "high", "name": "train", "nodes": 2, "cores_per_node": 8, "gpus": 4,)"
            R"( "gpu_type": "a100", "time_limit": 7200, "runtime": 9000, "requeue": false,)"
            R"( "interactive": true, "hold": true, "allow_multi_island": true})"
            "\n");
  const auto w = read_jsonl(path);
  ASSERT_TRUE(w.has_value()) << w.error().message;
  ASSERT_EQ(w->jobs.size(), 1u);
  EXPECT_EQ(w->skipped, 0);
  const WorkloadJob& j = w->jobs[0];
  EXPECT_EQ(j.line, 1);
  EXPECT_EQ(j.spec.id, JobId(42));
  EXPECT_EQ(j.spec.submit_time, Time::from_seconds(100));
  EXPECT_EQ(j.spec.user, "bob");
  EXPECT_EQ(j.spec.account, "phys");
  EXPECT_EQ(j.spec.partition, "gpu");
  EXPECT_EQ(j.spec.qos, "high");
  EXPECT_EQ(j.spec.name, "train");
  EXPECT_EQ(j.spec.resources, (ResourceRequest{2, 8, 4, "a100"}));
  EXPECT_EQ(j.spec.resources.total_gpus(), 8);
  EXPECT_EQ(j.spec.time_limit, Duration::seconds(7200));
  EXPECT_EQ(j.runtime, Duration::seconds(9000));
  EXPECT_FALSE(j.spec.requeue);
  EXPECT_TRUE(j.spec.interactive);
  EXPECT_TRUE(j.spec.hold);
  EXPECT_TRUE(j.spec.allow_multi_island);
}

TEST_F(JsonlTest, MemoryIsPerNodeOrPerCore) {
  const std::string path = write(
      R"({"id": 1, "submit": 0, "user": "a", "cores": 2, "mem": 4096, "time_limit": 1, "runtime": 1})"
      "\n"
      R"({"id": 2, "submit": 0, "user": "a", "cores": 2, "mem_per_cpu": 512, "time_limit": 1, "runtime": 1})"
      "\n");
  const auto w = read_jsonl(path);
  ASSERT_TRUE(w.has_value()) << w.error().message;
  ASSERT_EQ(w->jobs.size(), 2u);
  EXPECT_EQ(w->jobs[0].spec.resources.memory_per_node_mb, 4096);
  EXPECT_EQ(w->jobs[0].spec.resources.memory_per_cpu_mb, 0);
  EXPECT_EQ(w->jobs[1].spec.resources.memory_per_cpu_mb, 512);
}

TEST_F(JsonlTest, DefaultsAndCoresForm) {
  const std::string path =
      write(std::string(kGood) + "\n\n   \n" +
            R"({"id": 2, "submit": 5, "user": "carol", "cores": 12, "gpus": 3, "time_limit": 1,)"
            R"( "runtime": 0})"
            "\n" +
            R"({"id": 3, "submit": 5, "user": "dave", "nodes": 4, "time_limit": 10, "runtime": 10})");
  const auto w = read_jsonl(path);
  ASSERT_TRUE(w.has_value()) << w.error().message;
  ASSERT_EQ(w->jobs.size(), 3u);
  const WorkloadJob& a = w->jobs[0];
  EXPECT_EQ(a.spec.resources, (ResourceRequest{0, 1, 0, ""}));
  EXPECT_EQ(a.spec.account, "");
  EXPECT_EQ(a.spec.partition, "");
  EXPECT_EQ(a.spec.qos, "");
  EXPECT_EQ(a.spec.name, "");
  EXPECT_TRUE(a.spec.requeue);
  EXPECT_FALSE(a.spec.interactive);
  EXPECT_FALSE(a.spec.hold);
  EXPECT_FALSE(a.spec.allow_multi_island);
  const WorkloadJob& b = w->jobs[1];
  EXPECT_EQ(b.line, 4);
  EXPECT_EQ(b.spec.resources, (ResourceRequest{0, 12, 3, ""}));
  EXPECT_EQ(b.runtime, Duration::seconds(0));
  const WorkloadJob& c = w->jobs[2];
  EXPECT_EQ(c.line, 5);
  EXPECT_EQ(c.spec.resources, (ResourceRequest{4, 1, 0, ""}));
}

TEST_F(JsonlTest, SortsBySubmitThenId) {
  const std::string path = write(R"({"id": 9, "submit": 50, "user": "u", "time_limit": 1, "runtime": 1})"
                                 "\n"
                                 R"({"id": 3, "submit": 50, "user": "u", "time_limit": 1, "runtime": 1})"
                                 "\n"
                                 R"({"id": 5, "submit": 10, "user": "u", "time_limit": 1, "runtime": 1})"
                                 "\n");
  const auto w = read_jsonl(path);
  ASSERT_TRUE(w.has_value()) << w.error().message;
  ASSERT_EQ(w->jobs.size(), 3u);
  EXPECT_EQ(w->jobs[0].spec.id, JobId(5));
  EXPECT_EQ(w->jobs[1].spec.id, JobId(3));
  EXPECT_EQ(w->jobs[2].spec.id, JobId(9));
}

struct JsonlErrorCase {
  std::string line;    // written as line 2, after a good line 1
  std::string expect;  // the message after "w.jsonl:2: "
};

class JsonlErrorTest : public JsonlTest, public ::testing::WithParamInterface<JsonlErrorCase> {};

TEST_P(JsonlErrorTest, NamesLineAndKey) {
  const std::string path = write(std::string(kGood) + "\n" + GetParam().line + "\n");
  const auto w = read_jsonl(path);
  ASSERT_FALSE(w.has_value());
  EXPECT_EQ(w.error().code, ErrorCode::kInvalidArgument);
  const std::string want = path + ":2: " + GetParam().expect;
  EXPECT_EQ(w.error().message.substr(0, want.size()), want) << w.error().message;
}

// Builds a job line from the good one with `extra` spliced in (later keys replace).
std::string job_with(const std::string& extra, const std::string& base_id = "2") {
  return R"({"id": )" + base_id + R"(, "submit": 0, "user": "alice", "time_limit": 60,)" +
         R"( "runtime": 30)" + (extra.empty() ? "" : ", " + extra) + "}";
}

INSTANTIATE_TEST_SUITE_P(
    Jsonl, JsonlErrorTest,
    ::testing::Values(
        // Malformed lines and non-objects.
        JsonlErrorCase{R"({"id": 2, "submit": 0,)", "malformed JSON"},
        JsonlErrorCase{R"({"id": 2} trailing)", "malformed JSON"},
        JsonlErrorCase{"[1, 2]", "expected a JSON object, got [1,2]"},
        JsonlErrorCase{"42", "expected a JSON object"},
        // Unknown keys.
        JsonlErrorCase{job_with(R"("cpus": 4)"), "cpus: unknown key"},
        // Arrays: a bad index list; a dependency on a task names the task's own id.
        JsonlErrorCase{job_with(R"("array": "5-1")"),
                       "array: --array: the range '5-1' ends before it starts"},
        JsonlErrorCase{job_with(R"("dependency": "afterok:1_0")"),
                       "dependency: an array task (\"1_0\") is named by its own id in a trace"},
        // Required keys.
        JsonlErrorCase{R"({"submit": 0, "user": "a", "time_limit": 1, "runtime": 1})", "id: required"},
        JsonlErrorCase{R"({"id": 2, "user": "a", "time_limit": 1, "runtime": 1})", "submit: required"},
        JsonlErrorCase{R"({"id": 2, "submit": 0, "time_limit": 1, "runtime": 1})", "user: required"},
        JsonlErrorCase{R"({"id": 2, "submit": 0, "user": "a", "runtime": 1})", "time_limit: required"},
        JsonlErrorCase{R"({"id": 2, "submit": 0, "user": "a", "time_limit": 1})", "runtime: required"},
        // Wrong types.
        JsonlErrorCase{R"({"id": "2", "submit": 0, "user": "a", "time_limit": 1, "runtime": 1})",
                       R"(id: expected an integer, got "2")"},
        JsonlErrorCase{R"({"id": 2, "submit": 1.5, "user": "a", "time_limit": 1, "runtime": 1})",
                       "submit: expected an integer, got 1.5"},
        JsonlErrorCase{R"({"id": 2, "submit": 0, "user": 7, "time_limit": 1, "runtime": 1})",
                       "user: expected a string, got 7"},
        JsonlErrorCase{job_with(R"("account": null)"), "account: expected a string, got null"},
        JsonlErrorCase{job_with(R"("partition": ["a"])"), "partition: expected a string"},
        JsonlErrorCase{job_with(R"("qos": {})"), "qos: expected a string"},
        JsonlErrorCase{job_with(R"("name": false)"), "name: expected a string"},
        JsonlErrorCase{job_with(R"("cores": "4")"), "cores: expected an integer"},
        JsonlErrorCase{job_with(R"("nodes": 2.0)"), "nodes: expected an integer, got 2.0"},
        JsonlErrorCase{job_with(R"("nodes": 2, "cores_per_node": true)"),
                       "cores_per_node: expected an integer"},
        JsonlErrorCase{job_with(R"("gpus": [1])"), "gpus: expected an integer"},
        JsonlErrorCase{job_with(R"("gpu_type": 100)"), "gpu_type: expected a string"},
        JsonlErrorCase{job_with(R"("requeue": "yes")"), "requeue: expected true or false"},
        JsonlErrorCase{job_with(R"("interactive": 1)"), "interactive: expected true or false"},
        JsonlErrorCase{job_with(R"("hold": null)"), "hold: expected true or false"},
        JsonlErrorCase{job_with(R"("allow_multi_island": "no")"),
                       "allow_multi_island: expected true or false"},
        // Out of range.
        JsonlErrorCase{job_with("", "-1"), "id: must be >= 0, got -1"},
        JsonlErrorCase{job_with("", "18446744073709551615"), "id: must be <= "},
        JsonlErrorCase{R"({"id": 2, "submit": -1, "user": "a", "time_limit": 1, "runtime": 1})",
                       "submit: must be >= 0, got -1"},
        JsonlErrorCase{R"({"id": 2, "submit": 0, "user": "a", "time_limit": 0, "runtime": 1})",
                       "time_limit: must be >= 1, got 0"},
        JsonlErrorCase{R"({"id": 2, "submit": 0, "user": "a", "time_limit": 1, "runtime": -2})",
                       "runtime: must be >= 0, got -2"},
        JsonlErrorCase{job_with(R"("cores": 0)"), "cores: must be >= 1, got 0"},
        JsonlErrorCase{job_with(R"("cores": 3000000000)"), "cores: must be <= 2147483647"},
        JsonlErrorCase{job_with(R"("nodes": 0)"), "nodes: must be >= 1, got 0"},
        JsonlErrorCase{job_with(R"("nodes": 2, "cores_per_node": 0)"), "cores_per_node: must be >= 1, got 0"},
        JsonlErrorCase{job_with(R"("nodes": 100000, "cores_per_node": 100000)"),
                       "nodes: nodes x cores_per_node must be <= "},
        JsonlErrorCase{job_with(R"("gpus": -1)"), "gpus: must be >= 0, got -1"},
        JsonlErrorCase{job_with(R"("mem": 0)"), "mem: must be >= 1, got 0"},
        JsonlErrorCase{job_with(R"("mem": 100, "mem_per_cpu": 10)"),
                       "mem_per_cpu: give either mem or mem_per_cpu, not both"},
        // Inconsistent shapes.
        JsonlErrorCase{job_with(R"("cores": 4, "nodes": 2)"), "nodes: give either cores or nodes, not both"},
        JsonlErrorCase{job_with(R"("cores_per_node": 4)"), "cores_per_node: requires nodes"},
        // Duplicates name both lines.
        JsonlErrorCase{job_with("", "1"), "duplicate job id 1 (first used on line 1)"}));

TEST_F(JsonlTest, InvalidUtf8IsAnErrorNotACrash) {
  const std::string path = write(std::string(kGood) + "\n" +
                                 "{\"id\": 2, \"submit\": 0, \"user\": \"\xff\xfe\", "
                                 "\"time_limit\": 1, \"runtime\": 1}\n");
  const auto w = read_jsonl(path);
  ASSERT_FALSE(w.has_value());
  EXPECT_NE(w.error().message.find(path + ":2: malformed JSON"), std::string::npos) << w.error().message;
}

TEST_F(JsonlTest, MissingFileNamesPath) {
  const std::string path = (dir_ / "missing.jsonl").string();
  const auto w = read_jsonl(path);
  ASSERT_FALSE(w.has_value());
  EXPECT_NE(w.error().message.find(path), std::string::npos);
}

}  // namespace
}  // namespace fairway::sim
