// Every message, with every member (and every member of what it holds) set to something
// other than its default, comes back whole: a field left out of a field list fails here.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <variant>
#include <vector>

#include "member_walk.h"
#include "shared/model/job_array.h"
#include "shared/wire/codec.h"

namespace fairway::wire {
namespace {

using testing::collect_differences;
using testing::collect_unset;

std::string joined(const std::vector<std::string>& paths) {
  std::string out;
  for (const auto& p : paths) out += " " + p;
  return out;
}

NodeTopology full_topology() {
  NodeTopology t;
  t.name = "n7";
  t.sockets = {SocketTopology{8, 2}, SocketTopology{6, 2}};
  t.gpus = {GpuDevice{"a100", 1}};
  t.memory_mb = 256000;
  t.features = {"ib", "nvme"};
  t.island = "rack3";  // not sent: the coordinator's config names islands (see below)
  return t;
}

JobProgram full_program() {
  return JobProgram{"#!/bin/sh\necho hi\n",
                    {"/bin/echo", "hi"},
                    "/home/alice",
                    {{"A", "1"}, {"B", "2"}},
                    "/tmp/out",
                    "/tmp/err",
                    true};
}

SubmitRequest full_submit() {
  SubmitRequest m;
  m.client_token = "tok-1";
  m.test_only = true;
  m.program = full_program();
  JobSpec& s = m.spec;
  s.id = JobId(99);                       // not sent: the coordinator assigns it
  s.submit_time = Time::from_seconds(5);  // not sent: the coordinator stamps it
  s.allow_multi_island = true;            // not sent: the coordinator's own decision
  s.name = "train";
  s.user = "alice";
  s.uid = 1001;
  s.gid = 1002;
  s.account = "proj";
  s.partition = "gpu";
  s.qos = "high";
  s.resources = ResourceRequest{2, 16, 4, "a100", 4096, 512};
  s.tasks = TaskLayout{8, 2, 4};
  s.comment = "a comment";
  s.reservation = "resv";
  s.dependencies = {DependencyClause{DependencyType::kAfterOk, {JobId(3), JobId(4)}}};
  s.dependency_any = true;
  s.kill_on_invalid_dep = true;
  s.begin = Time::from_seconds(1'700'000'000);
  s.nice = -5;
  s.exclusive = true;
  s.only_nodes = {"n1", "n2"};
  s.excluded_nodes = {"n9"};
  s.constraint = "ib&nvme";
  s.warn_signal = 10;
  s.warn_before_s = 60;
  s.warn_batch_only = true;
  s.mail_events = static_cast<std::uint8_t>(kMailBegin | kMailFail);
  s.mail_user = "alice@example.org";
  s.gpu_ask = GpuAsk{GpuAskedPer::kNode, 2, 8, 4096};
  s.time_limit = Duration::seconds(7200);
  s.requeue = false;
  s.interactive = true;
  s.hold = true;
  s.array = parse_array_spec("3-9:3%2", kMaxArrayIndex).value();
  s.array_job = JobId(40);
  s.array_task = 6;
  return m;
}

// What the wire leaves out on purpose, copied back before comparing.
void restore_unsent(SubmitRequest& back, const SubmitRequest& sent) {
  back.spec.id = sent.spec.id;
  back.spec.submit_time = sent.spec.submit_time;
  back.spec.allow_multi_island = sent.spec.allow_multi_island;
}

JobView full_job_view() {
  JobView j;
  j.id = JobId(12);
  j.name = "train";
  j.user = "alice";
  j.account = "proj";
  j.partition = "gpu";
  j.qos = "high";
  j.state = JobState::kRunning;
  j.reasons = {"Priority"};
  j.reason_texts = {"waits for higher priority jobs"};
  j.submit_time = Time::from_seconds(100);
  j.start_time = Time::from_seconds(200);
  j.end_time = Time::from_seconds(300);
  j.estimated_start = Time::from_seconds(150);
  j.predicted_runtime = Duration::seconds(90);
  j.estimated_start_by_limit = Time::from_seconds(160);
  j.time_limit = Duration::seconds(3600);
  j.nodes = 2;
  j.cores = 32;
  j.gpus = 4;
  j.gpu_type = "a100";
  j.memory_per_node_mb = 4096;
  j.memory_per_cpu_mb = 128;
  j.allocation = {JobAllocationView{"n1", {0, 1}, {0}}};
  j.priority = 1234.5;
  j.priority_factors = {PriorityFactor{"age", 10.5, 3.25}};
  j.exit_code = 3;
  j.signal = 9;
  j.working_dir = "/home/alice";
  j.stdout_path = "/tmp/out";
  j.stderr_path = "/tmp/err";
  j.requeue_count = 2;
  j.state_reason = "NodeFail";
  j.peak_memory_bytes = 1 << 20;
  j.cpu_time_ms = 5000;
  j.reservation = "resv";
  j.array_job = JobId(10);
  j.array_tasks = "[5-100%10]";
  j.uid = 1001;
  j.gid = 1002;
  j.ntasks = 8;
  j.cpus_per_task = 2;
  j.interactive = true;
  j.steps = {StepView{1, "hostname", JobState::kCompleted, Time::from_seconds(210), Time::from_seconds(220),
                      4, 6, 8, 2, 1024, 777}};
  j.cancelling = true;
  j.comment = "note";
  j.nice = 7;
  j.ntasks_per_node = 4;
  j.exclusive = true;
  j.req_nodes = {"n1", "n2"};
  j.exc_nodes = {"n3"};
  j.features = "skylake&ib";
  j.no_requeue = true;
  j.mail_events = 3;
  j.mail_user = "alice@example.org";
  j.gpu_ask = GpuAsk{GpuAskedPer::kTask, 2, 4, 1000};
  j.stopping_as = JobState::kTimeout;
  return j;
}

NodeView full_node_view() {
  return NodeView{"n1",
                  "mixed",
                  {"gpu", "cpu"},
                  2,
                  32,
                  2,
                  4,
                  {"a100"},
                  16,
                  2,
                  256000,
                  128000,
                  Time::from_seconds(500),
                  "maintenance",
                  "root",
                  0,
                  Time::from_seconds(400),
                  {JobId(12)},
                  "cgroup",
                  {"ib"}};
}

LaunchJob full_launch() {
  LaunchJob m;
  m.job = JobId(12);
  m.user = "alice";
  m.account = "proj";
  m.name = "train";
  m.program = full_program();
  m.cores = {0, 1, 2};
  m.gpus = {1};
  m.time_limit = Duration::seconds(600);
  m.nodelist = {"n1", "n2"};
  m.partition = "gpu";
  m.restarts = 1;
  m.uid = 1001;
  m.gid = 1002;
  m.fence_gpu_sockets = false;
  m.tasks = TaskLayout{4, 2, 2};
  m.node_cores = {3, 3};
  m.memory_limit_bytes = 1 << 30;
  m.warn_signal = 12;
  m.warn_before_s = 30;
  m.warn_batch_only = true;
  m.array = ArrayTaskFacts{JobId(40), 6, 3, 3, 9, 3};
  m.extern_only = true;
  return m;
}

JobControl full_job_control(JobAction action) {
  JobControl m;
  m.action = action;
  m.jobs = {JobId(1), JobId(2)};
  m.user = "alice";
  m.signal = 12;
  m.batch_only = true;
  m.task_arrays = {JobId(40)};
  m.task_indices = {6};
  m.exit_code = 3;
  return m;
}

std::vector<Message> full_messages() {
  return {
      AgentRegister{"n1",
                    "1.2.3",
                    full_topology(),
                    {RunningJob{JobId(12), {0, 1}, {0}, Time::from_seconds(100), 4242}},
                    "cgroup"},
      Heartbeat{"n1", 7, Time::from_seconds(100)},
      JobStatusUpdate{"n1", 8, JobId(12), JobState::kFailed, 3, 9, Time::from_seconds(300), "OOM", 1 << 20,
                      5000, 2},
      full_launch(),
      SignalJob{JobId(12), 9, Duration::seconds(30)},
      Ack{9},
      ErrorReply{ErrorCode::kNotFound, "no such job"},
      full_submit(),
      SubmitReply{JobId(12), true, Time::from_seconds(400), "gpu", {"n1"}, 32, "Resources"},
      JobQuery{{JobId(12)},
               "alice",
               "gpu",
               {JobState::kPending, JobState::kRunning},
               true,
               JobId(11),
               50,
               true,
               "proj",
               Time::from_seconds(10),
               Time::from_seconds(20),
               true,
               true},
      JobQueryReply{Time::from_seconds(1000), {full_job_view()}, true, 77},
      full_job_control(JobAction::kSignal),
      JobControlReply{{JobControlResult{JobId(12), true, "cancelled", ErrorCode::kNotFound}}},
      NodeQuery{{"n1"}},
      NodeQueryReply{{full_node_view()}},
      SubmitBatch{{full_submit()}},
      SubmitBatchReply{{SubmitResult{JobId(12), "queued late"}}},
      NodeControl{NodeAction::kResume, {"n1"}, "fixed", "root"},
      NodeControlReply{{NodeControlResult{"n1", true, "resumed"}}},
      AuthenticatedRequest{"cred", "frame"},
      HeartbeatReply{7},
      MetricsQuery{},
      MetricsReply{
          Time::from_seconds(1000),
          {MetricFamily{
              "fairway_jobs", "gauge", "jobs by state", {MetricSample{"_total", {{"state", "run"}}, 3.5}}}}},
      PartitionQuery{{"gpu"}},
      PartitionQueryReply{{PartitionView{"gpu",
                                         true,
                                         {"n1"},
                                         1,
                                         32,
                                         16,
                                         4,
                                         2,
                                         Duration::seconds(86400),
                                         Duration::seconds(3600),
                                         2.5,
                                         3,
                                         "requeue",
                                         "normal",
                                         "socket",
                                         5,
                                         6,
                                         {"exclusive_user"},
                                         {"proj"},
                                         {"bad"},
                                         {"wheel"},
                                         {"high"},
                                         {"low"}}}},
      SharesQuery{"alice", "proj", true},
      SharesReply{
          Time::from_seconds(1000), "fair_tree", {ShareView{"proj", "alice", 1, 0.5, 100, 0.25, 0.75}}},
      JobUpdate{{JobId(12)},
                Duration::seconds(600),
                "cpu",
                "low",
                "other",
                "renamed",
                "why",
                5,
                Time::from_seconds(9)},
      SetTimeLimit{JobId(12), Duration::seconds(900)},
      SendSignal{JobId(12), 12, true},
      ReservationQuery{{"resv"}},
      ReservationQueryReply{Time::from_seconds(1000),
                            {ReservationView{"resv",
                                             "project",
                                             "active",
                                             Time::from_seconds(10),
                                             Time::from_seconds(20),
                                             Time::from_seconds(15),
                                             "unused",
                                             {"n1"},
                                             "proj",
                                             {"alice"},
                                             32,
                                             16,
                                             0.5,
                                             Duration::seconds(60),
                                             Time::from_seconds(12),
                                             1,
                                             2}}},
      StepRequest{JobId(12),
                  {"hostname"},
                  {{"A", "1"}},
                  "/home",
                  4,
                  2,
                  "tcp://h:1",
                  "key",
                  true,
                  {"n1"},
                  {"n2"},
                  2,
                  3,
                  "cores",
                  "cyclic",
                  "pmi2",
                  true},
      StepReply{JobId(12), 1, {"n1", "n2"}, {2, 2}},
      LaunchStep{JobId(12),
                 1,
                 "alice",
                 1001,
                 1002,
                 {"hostname"},
                 {{"A", "1"}},
                 "/home",
                 {"n1", "n2"},
                 {2, 2},
                 1,
                 2,
                 "tcp://h:1",
                 "key",
                 true,
                 "cores",
                 "cyclic",
                 "pmix",
                 {4, 5}},
      StepIo{StepIoKind::kStdout, 1, 3, 42, "out"},
      ConfigQuery{},
      ConfigReply{Time::from_seconds(1000), {ConfigEntry{"scheduler.interval", "5s"}}},
      StepEnded{JobId(12), 1, 3, 9, 2048, 999},
  };
}

// What a message keeps of `sent` that the wire does not carry.
void restore_unsent(Message& back, const Message& sent) {
  if (auto* m = std::get_if<SubmitRequest>(&back)) restore_unsent(*m, std::get<SubmitRequest>(sent));
  if (auto* m = std::get_if<SubmitBatch>(&back)) {
    for (std::size_t i = 0; i < m->requests.size(); ++i) {
      restore_unsent(m->requests[i], std::get<SubmitBatch>(sent).requests.at(i));
    }
  }
  if (auto* m = std::get_if<AgentRegister>(&back))
    m->topology.island = std::get<AgentRegister>(sent).topology.island;
  if (auto* m = std::get_if<JobControl>(&back)) {
    // Only a signal action sends its signal and batch_only; only an allocation's end its exit code.
    const auto& c = std::get<JobControl>(sent);
    if (c.action == JobAction::kSignal) m->exit_code = c.exit_code;
    if (c.action == JobAction::kEndAllocation) m->batch_only = c.batch_only;
  }
}

void expect_every_member_comes_back(const Message& sent) {
  SCOPED_TRACE(std::string(to_string(message_type(sent))));
  std::visit(
      [&](const auto& m) {
        using T = std::decay_t<decltype(m)>;
        std::vector<std::string> unset;
        collect_unset(m, T{}, "", unset);
        EXPECT_TRUE(unset.empty()) << "members left at their defaults (by index):" << joined(unset);
      },
      sent);
  auto back = decode(encode(sent));
  ASSERT_TRUE(back.has_value()) << back.error().message;
  ASSERT_EQ(back->index(), sent.index());
  restore_unsent(*back, sent);
  std::visit(
      [&](const auto& m) {
        using T = std::decay_t<decltype(m)>;
        std::vector<std::string> differ;
        collect_differences(std::get<T>(*back), m, "", differ);
        EXPECT_TRUE(differ.empty()) << "members that did not come back (by index):" << joined(differ);
      },
      sent);
}

TEST(FieldList, EveryMemberOfEveryMessageComesBack) {
  std::set<std::size_t> types;
  for (const Message& m : full_messages()) {
    types.insert(m.index());
    expect_every_member_comes_back(m);
  }
  EXPECT_EQ(types.size(), std::variant_size_v<Message>);
}

TEST(FieldList, AnAllocationsEndComesBackWithItsOutcome) {
  expect_every_member_comes_back(full_job_control(JobAction::kEndAllocation));
}

// The test above can fail: a member the wire does not carry is caught.
TEST(FieldList, AMemberNotSentIsCaught) {
  const Message sent = full_submit();
  auto back = decode(encode(sent));
  ASSERT_TRUE(back.has_value()) << back.error().message;
  std::vector<std::string> differ;
  collect_differences(std::get<SubmitRequest>(*back), std::get<SubmitRequest>(sent), "", differ);
  EXPECT_EQ(differ.size(), 3u) << joined(differ);  // id, submit_time, allow_multi_island
}

}  // namespace
}  // namespace fairway::wire
