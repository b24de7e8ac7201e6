// Sample messages with non-trivial values and comparisons for the wire tests.
// Test-only; plain functions, thread-safe.
#pragma once

#include <string>
#include <vector>

#include "shared/wire/messages.h"

namespace fairway::wire::testing {

inline bool equal(const NodeTopology& a, const NodeTopology& b) {
  if (a.name != b.name || a.memory_mb != b.memory_mb || a.features != b.features) return false;
  if (a.sockets.size() != b.sockets.size() || a.gpus.size() != b.gpus.size()) return false;
  for (std::size_t i = 0; i < a.sockets.size(); ++i) {
    if (a.sockets[i].cores != b.sockets[i].cores) return false;
    if (a.sockets[i].threads_per_core != b.sockets[i].threads_per_core) return false;
  }
  for (std::size_t i = 0; i < a.gpus.size(); ++i) {
    if (a.gpus[i].type != b.gpus[i].type || a.gpus[i].socket != b.gpus[i].socket) return false;
  }
  return true;
}

inline bool equal(const AgentRegister& a, const AgentRegister& b) {
  return a.node == b.node && a.agent_version == b.agent_version && equal(a.topology, b.topology) &&
         a.running == b.running && a.enforcement == b.enforcement;
}

// id and submit_time are not sent (the coordinator assigns them), so they are not compared.
inline bool equal(const JobSpec& a, const JobSpec& b) {
  return a.name == b.name && a.user == b.user && a.account == b.account && a.partition == b.partition &&
         a.qos == b.qos && a.resources == b.resources && a.time_limit == b.time_limit &&
         a.requeue == b.requeue && a.interactive == b.interactive && a.hold == b.hold && a.uid == b.uid &&
         a.gid == b.gid && a.tasks == b.tasks && a.comment == b.comment && a.reservation == b.reservation &&
         a.dependencies == b.dependencies && a.dependency_any == b.dependency_any &&
         a.kill_on_invalid_dep == b.kill_on_invalid_dep && a.nice == b.nice && a.begin == b.begin &&
         a.resources.memory_per_node_mb == b.resources.memory_per_node_mb &&
         a.resources.memory_per_cpu_mb == b.resources.memory_per_cpu_mb && a.exclusive == b.exclusive &&
         a.only_nodes == b.only_nodes && a.excluded_nodes == b.excluded_nodes &&
         a.constraint == b.constraint && a.warn_signal == b.warn_signal &&
         a.warn_before_s == b.warn_before_s && a.warn_batch_only == b.warn_batch_only &&
         a.mail_events == b.mail_events && a.mail_user == b.mail_user;
}

inline bool equal(const SubmitRequest& a, const SubmitRequest& b) {
  return a.client_token == b.client_token && equal(a.spec, b.spec) && a.program == b.program &&
         a.test_only == b.test_only;
}

inline bool equal(const SubmitBatch& a, const SubmitBatch& b) {
  if (a.requests.size() != b.requests.size()) return false;
  for (std::size_t i = 0; i < a.requests.size(); ++i) {
    if (!equal(a.requests[i], b.requests[i])) return false;
  }
  return true;
}

template <typename T>
bool equal(const T& a, const T& b) {
  return a == b;
}

inline AgentRegister sample_agent_register() {
  AgentRegister m;
  m.node = "gpu-node-07";
  m.agent_version = "0.1.0+g1234abc";
  m.enforcement = "cgroup v1 (cpuset memory devices cpuacct)";
  m.topology = NodeTopology::uniform("gpu-node-07", 2, 24, 2, "a100", 2);
  m.topology.sockets[1].cores = 20;  // deliberately non-uniform
  m.topology.memory_mb = 512 * 1024;
  m.topology.features = {"ib", "nvme", "ünïcode"};
  m.running.push_back({JobId(42), {0, 1, 2, 3}, {0}, Time::from_seconds(1'700'000'000), 12345});
  m.running.push_back(
      {JobId(std::uint64_t{1} << 40), {24, 25}, {}, Time::from_seconds(-5), std::int64_t{1} << 33});
  return m;
}

inline Heartbeat sample_heartbeat() {
  return Heartbeat{"node-001", std::uint64_t{0xFFFF'FFFF'FFFF'FFF0}, Time::from_seconds(1'700'000'123)};
}

inline JobStatusUpdate sample_status(bool with_optionals) {
  JobStatusUpdate m;
  m.node = "node-002";
  m.seq = 77;
  m.job = JobId(9001);
  m.state = with_optionals ? JobState::kFailed : JobState::kRunning;
  if (with_optionals) {
    m.exit_code = -3;
    m.signal = 9;
    m.reason = "launch failed on node node-002: working directory /x: No such file or directory";
    m.peak_memory_bytes = 123456789;
    m.cpu_time_ms = 4567;
    m.attempt = 3;
  }
  m.time = Time::from_seconds(1'700'000'456);
  return m;
}

inline LaunchJob sample_launch() {
  LaunchJob m;
  m.job = JobId(123456789);
  m.user = "alice";
  m.account = "physics";
  m.name = "train \"big\" model";
  m.program.script = "#!/bin/bash\n#SBATCH -n 4\nsrun ./a.out\n";
  m.program.argv = {"python", "-c", "print('hi')", ""};
  m.program.working_dir = "/home/alice/run";
  m.program.env = {{"PATH", "/usr/bin"}, {"EMPTY", ""}, {"PATH", "/opt/bin:/usr/bin"}};
  m.program.stdout_path = "/home/alice/run/%j.out";
  m.program.stderr_path = "/home/alice/run/%j.err";
  m.program.open_append = true;
  m.cores = {4, 5, 6, 7, 28, 29};
  m.gpus = {1};
  m.time_limit = Duration::hours(48);
  m.nodelist = {"cn01", "cn02"};
  m.partition = "batch";
  m.restarts = 2;
  m.tasks = TaskLayout{6, 1, 3};
  m.node_cores = {6, 6};
  m.memory_limit_bytes = std::int64_t{6} << 30;
  m.warn_signal = 12;
  m.warn_before_s = 60;
  m.uid = 1001;
  m.gid = 100;
  m.array = ArrayTaskFacts{JobId(123456700), 88, 100, 1, 100, 1};
  return m;
}

inline SignalJob sample_signal() {
  return SignalJob{JobId(5), 10, Duration::seconds(30)};
}

inline SubmitRequest sample_submit() {
  SubmitRequest m;
  m.client_token = "c0ffee-1234";
  m.spec.name = "sweep";
  m.spec.user = "bob";
  m.spec.account = "chem";
  m.spec.partition = "gpu";
  m.spec.qos = "devel";
  m.spec.resources = ResourceRequest{2, 16, 4, "v100"};
  m.spec.time_limit = Duration::minutes(90);
  m.spec.requeue = false;
  m.spec.interactive = true;
  m.spec.hold = true;
  m.spec.tasks = TaskLayout{4, 4, 2};
  m.spec.comment = "sweep #3, see notebook";
  m.spec.reservation = "climate-run";
  m.spec.dependencies = {{DependencyType::kAfterOk, {JobId(7), JobId(9)}}, {DependencyType::kSingleton, {}}};
  m.spec.dependency_any = true;
  m.spec.kill_on_invalid_dep = true;
  m.spec.nice = 50;
  m.spec.begin = Time::from_seconds(1'800'000'000);
  m.spec.resources.memory_per_cpu_mb = 2048;
  m.spec.exclusive = true;
  m.spec.only_nodes = {"gpu01", "gpu02"};
  m.spec.excluded_nodes = {"gpu03"};
  m.spec.constraint = "v100&ib";
  m.spec.warn_signal = 10;
  m.spec.warn_before_s = 120;
  m.spec.warn_batch_only = true;
  m.spec.mail_events = kMailEnd | kMailFail;
  m.spec.mail_user = "bob@example.org";
  m.spec.uid = 1001;
  m.spec.gid = 100;
  m.program.script = "";
  m.program.argv = {"hostname"};
  m.program.working_dir = "/scratch/bob";
  m.program.stdout_path = "out.txt";
  m.program.stderr_path = "err.txt";
  m.program.env = {{"OMP_NUM_THREADS", "16"}};
  return m;
}

inline JobQuery sample_job_query() {
  return JobQuery{{JobId(7), JobId(std::uint64_t{1} << 50)},
                  "alice",
                  "gpu",
                  {JobState::kPending, JobState::kHeld, JobState::kNodeFail},
                  true,
                  JobId(5),
                  500,
                  true,
                  "physics",
                  Time::from_seconds(1'700'000'000),
                  Time::from_seconds(1'800'000'000),
                  true,
                  true};
}

// A finished job with every optional field set, and a pending one with none.
inline JobView sample_job_view(bool finished) {
  JobView j;
  j.id = JobId(finished ? 4242 : 4243);
  j.name = finished ? "train \"big\" model" : "";
  j.user = "alice";
  j.account = "physics";
  j.partition = "gpu";
  j.qos = "normal";
  j.state = finished ? JobState::kFailed : JobState::kPending;
  if (!finished) {
    j.reasons = {"Resources", "Priority"};
    j.reason_texts = {"Waiting for 4 GPUs of type a100 to be free.",
                      "Jobs with higher priority are ahead of it in partition gpu."};
    j.estimated_start = Time::from_seconds(1'700'010'000);
    j.predicted_runtime = Duration::seconds(900);
    j.estimated_start_by_limit = Time::from_seconds(1'700'030'000);
  }
  j.submit_time = Time::from_seconds(1'700'000'000);
  if (finished) {
    j.start_time = Time::from_seconds(1'700'000'060);
    j.end_time = Time::from_seconds(1'700'003'660);
    j.exit_code = 137;
    j.signal = 9;
    j.allocation = {{"gpu-01", {0, 1, 2, 3}, {0, 1}}, {"gpu-02", {4, 5, 6, 7}, {}}};
  }
  j.time_limit = finished ? Duration::hours(2) : Duration::infinite();
  j.nodes = 2;
  j.cores = 4;
  j.gpus = 2;
  j.gpu_type = "a100";
  j.memory_per_cpu_mb = 2000;
  j.priority = finished ? 0.0 : 1234.5625;
  j.priority_factors = {{"age", 0.25}, {"fairshare", -3.5e-7}, {"qos", 1000}};
  j.working_dir = "/home/alice/run";
  j.stdout_path = "/home/alice/run/%j.out";
  j.stderr_path = "";
  j.requeue_count = finished ? 3 : 0;
  if (finished) j.state_reason = "node cn07 lost";
  if (!finished) j.reservation = "climate-run";
  if (!finished) {
    j.array_job = JobId(4200);
    j.array_tasks = "[5-100%10]";
  }
  if (finished) {
    j.uid = 1001;
    j.gid = 100;
    j.ntasks = 8;
    j.cpus_per_task = 1;
    j.interactive = true;
    j.stopping_as = JobState::kTimeout;  // every optional field set in one of the two
    j.steps = {{0, "hostname", JobState::kCompleted, Time::from_seconds(1'700'000'100),
                Time::from_seconds(1'700'000'101), 0, 0, 8, 2, 2988, 1'234},
               {1, "sh", JobState::kCancelled, Time::from_seconds(1'700'000'200),
                Time::from_seconds(1'700'000'260), 0, 9, 1, 1},
               {2, "a.out", JobState::kRunning, Time::from_seconds(1'700'000'300), std::nullopt, 0, 0, 4, 2},
               {3, "a.out", JobState::kFailed, Time::from_seconds(1'700'000'300),
                Time::from_seconds(1'700'000'400), 2, 0, 4, 2}};
  }
  return j;
}

inline JobQueryReply sample_job_query_reply() {
  return JobQueryReply{
      Time::from_seconds(1'700'005'000), {sample_job_view(true), sample_job_view(false)}, true, 12345};
}

inline JobControl sample_job_control() {
  JobControl m{JobAction::kRequeue, {JobId(1), JobId(2), JobId(3)}, "root", 0, false, {}, {}};
  m.task_arrays = {JobId(40), JobId(40)};
  m.task_indices = {7, 100000};
  return m;
}

inline JobControlReply sample_job_control_reply() {
  return JobControlReply{
      {{JobId(1), true, ""}, {JobId(2), false, "job 2 belongs to bob; alice may not requeue it"}}};
}

inline NodeView sample_node_view(bool with_heartbeat) {
  NodeView n;
  n.name = with_heartbeat ? "gpu-01" : "cpu-17";
  n.state = with_heartbeat ? "mixed" : "down";
  n.partitions = {"gpu", "batch"};
  n.sockets = 2;
  n.cores = 48;
  n.threads_per_core = 2;
  n.gpus = with_heartbeat ? 4 : 0;
  if (with_heartbeat) n.gpu_types = {"a100", "a100", "v100", "v100"};
  n.cores_used = with_heartbeat ? 12 : 0;
  n.gpus_used = with_heartbeat ? 2 : 0;
  n.memory_mb = std::int64_t{2} << 20;
  n.memory_used_mb = std::int64_t{1} << 20;
  if (with_heartbeat) n.last_heartbeat = Time::from_seconds(1'700'004'990);
  n.reason = with_heartbeat ? "" : "no heartbeat for 45 s";
  if (!with_heartbeat) {
    n.reason_user = "fairway";
    n.reason_uid = 998;
    n.reason_time = Time::from_seconds(1'700'004'000);
  }
  if (with_heartbeat) n.features = {"ib", "avx512"};
  if (with_heartbeat) n.jobs = {JobId(4242), JobId(9)};
  return n;
}

inline NodeQueryReply sample_node_query_reply() {
  return NodeQueryReply{{sample_node_view(true), sample_node_view(false)}};
}

inline SubmitBatch sample_submit_batch() {
  SubmitRequest second = sample_submit();
  second.client_token = "c0ffee-5678";
  second.program.script = "#!/bin/sh\necho hi\n";
  second.program.argv.clear();
  second.spec.array = *parse_array_spec("1-100,200,300-400:2%10", kMaxArrayIndex);
  SubmitRequest task = sample_submit();
  task.client_token.clear();
  task.spec.array_job = JobId(99);
  task.spec.array_task = 7;
  return SubmitBatch{{sample_submit(), second, task}};
}

inline SubmitBatchReply sample_submit_batch_reply() {
  return SubmitBatchReply{{{JobId(100), ""}, {std::nullopt, "partition \"nope\" does not exist"}}};
}

// One valid message of every type (and both shapes of JobStatusUpdate).
inline NodeControl sample_node_control() {
  return NodeControl{NodeAction::kDrain, {"cn01", "cn02"}, "bad DIMM", "root"};
}

inline NodeControlReply sample_node_control_reply() {
  return NodeControlReply{{{"cn01", true, ""}, {"cn99", false, "node 'cn99' does not exist"}}};
}

inline MetricsReply sample_metrics_reply() {
  MetricsReply m;
  m.now = Time::from_seconds(1'700'005'000);
  m.families = {{"fairway_jobs",
                 "gauge",
                 "Jobs by state and partition.",
                 {{"", {{"state", "pending"}, {"partition", "batch"}}, 12},
                  {"", {{"state", "running"}, {"partition", "gpu"}}, 3}}},
                {"fairway_pass_duration_seconds",
                 "histogram",
                 "Scheduling pass durations.",
                 {{"_bucket", {{"le", "0.001"}}, 40},
                  {"_bucket", {{"le", "+Inf"}}, 41},
                  {"_sum", {}, 0.0375},
                  {"_count", {}, 41}}}};
  return m;
}

inline PartitionQueryReply sample_partition_reply() {
  PartitionView p;
  p.name = "owner-lab";
  p.is_default = false;
  p.nodes = {"node0001", "node0002"};
  p.nodes_up = 1;
  p.cores = 56;
  p.cores_used = 28;
  p.gpus = 4;
  p.gpus_used = 1;
  p.max_time = Duration::days(3);
  p.default_time = Duration::hours(1);
  p.priority = 10.5;
  p.priority_tier = 2;
  p.preempt = "off";
  p.default_qos = "normal";
  p.allocation_unit = "core";
  p.jobs_pending = 7;
  p.jobs_running = 2;
  p.flags = {"socket_exclusive_gpus"};
  p.allow_accounts = {"lab"};
  p.allow_groups = {"lab-members", "staff"};
  p.deny_qos = {"long"};
  PartitionView open = p;
  open.allow_accounts = {};
  open.allow_groups = {};
  open.deny_qos = {};
  open.deny_accounts = {"guests"};
  open.allow_qos = {"normal"};
  open.name = "work1";
  open.is_default = true;
  open.preempt = "requeue";
  open.max_time = Duration::infinite();
  open.flags = {};
  return PartitionQueryReply{{p, open}};
}

inline SharesReply sample_shares_reply() {
  return SharesReply{
      Time::from_seconds(1'700'005'000),
      "fair_tree",
      {{"physics", "", 40, 0.4, 1234.5, 0.25, 0}, {"physics", "alice", 1, 0.2, 1000.5, 0.2, 0.75}}};
}

inline ReservationQueryReply sample_reservation_reply() {
  ReservationView project;
  project.name = "climate-run";
  project.kind = "project";
  project.state = "cancelled";
  project.start = Time::from_seconds(1'700'000'000);
  project.end = Time::from_seconds(1'700'172'800);
  project.cancelled_at = Time::from_seconds(1'700'003'600);
  project.cancel_reason = "under 50% of its 64 cores in use since ...";
  project.nodes = {"node0001", "node0002"};
  project.account = "climate";
  project.users = {"alice", "bob"};
  project.cores = 64;
  project.cores_in_use = 8;
  project.cancel_below_use = 0.5;
  project.cancel_after = Duration::minutes(30);
  project.below_since = Time::from_seconds(1'700'001'800);
  project.jobs_pending = 3;
  project.jobs_running = 1;
  ReservationView outage;
  outage.name = "outage";
  outage.kind = "maintenance";
  outage.state = "waiting";
  outage.start = Time::from_seconds(1'800'000'000);
  outage.end = Time::from_seconds(1'800'028'800);
  outage.nodes = {"ALL"};
  return ReservationQueryReply{Time::from_seconds(1'700'005'000), {project, outage}};
}

inline std::vector<Message> sample_messages() {
  return {sample_agent_register(),
          sample_heartbeat(),
          sample_status(true),
          sample_status(false),
          sample_launch(),
          sample_signal(),
          Ack{std::uint64_t{1} << 63},
          ErrorReply{ErrorCode::kResourceExhausted, "rate limit: 1000 tokens spent"},
          sample_submit(),
          [] {
            SubmitRequest m = sample_submit();
            m.test_only = true;
            return m;
          }(),
          SubmitReply{.job = JobId(31337)},
          SubmitReply{.job = JobId(0),
                      .test_only = true,
                      .estimated_start = Time::from_seconds(1'700'000'000),
                      .partition = "batch",
                      .nodes = {"n1", "n2"},
                      .cores = 8,
                      .reason = ""},
          sample_job_query(),
          JobQuery{},
          sample_job_query_reply(),
          sample_job_control(),
          sample_job_control_reply(),
          NodeQuery{{"gpu-01", "cpu-17"}},
          sample_node_query_reply(),
          sample_submit_batch(),
          sample_submit_batch_reply(),
          sample_node_control(),
          sample_node_control_reply(),
          AuthenticatedRequest{"MUNGE:AwQDAACm...:", encode(sample_job_control())},
          HeartbeatReply{42},
          MetricsQuery{},
          sample_metrics_reply(),
          PartitionQuery{{"work1", "owner-lab"}},
          sample_partition_reply(),
          SharesQuery{"alice", "physics", true},
          sample_shares_reply(),
          JobUpdate{{JobId(7), JobId(9)},
                    Duration::hours(2),
                    "long",
                    "high",
                    "physics",
                    "renamed",
                    std::string("moved"),
                    10,
                    Time::from_seconds(1'700'009'000)},
          JobUpdate{{JobId(7)}, std::nullopt, "", "", "", "", std::nullopt, std::nullopt, std::nullopt},
          SetTimeLimit{JobId(7), Duration::minutes(90)},
          SendSignal{JobId(7), 10, true},
          JobControl{JobAction::kSignal, {JobId(7)}, "alice", 12, true, {}, {}},
          ReservationQuery{{"climate-run"}},
          sample_reservation_reply(),
          StepRequest{JobId(42),
                      {"hostname", "-s"},
                      {{"PATH", "/usr/bin"}, {"OMP_NUM_THREADS", "2"}},
                      "/home/alice",
                      4,
                      2,
                      "tcp://10.1.2.3:40211",
                      "0123456789abcdef0123456789abcdef",
                      true,
                      {"n1"},
                      {"n3"},
                      2,
                      1,
                      "map_cpu:0,1",
                      "cyclic:block",
                      "pmi2",
                      true},
          StepReply{JobId(42), 3, {"n1", "n2"}, {2, 2}},
          LaunchStep{JobId(42),
                     3,
                     "alice",
                     1001,
                     100,
                     {"hostname"},
                     {{"PATH", "/usr/bin"}},
                     "/home/alice",
                     {"n1", "n2"},
                     {2, 2},
                     1,
                     2,
                     "tcp://10.1.2.3:40211",
                     "0123456789abcdef0123456789abcdef",
                     true,
                     "cores",
                     "cyclic",
                     "pmi2",
                     {4, 5}},
          StepIo{StepIoKind::kFence, 1, 0, 2, std::string("\0\0\0\1k\0\0\0\1v", 10)},
          StepIo{StepIoKind::kStdout, 1, 3, 0, std::string("line\n\0binary", 12)},
          StepIo{StepIoKind::kExit, 0, 0, -9, ""},
          ConfigQuery{},
          StepEnded{JobId(42), 3, 2, 0, 84500, 4'094'123},
          StepEnded{JobId(42), 4, 0, 9},
          ConfigReply{
              Time::from_seconds(1'700'000'000),
              {{"agent.kill_grace", "30s"}, {"cluster.name", "kebnekaise"}, {"scheduler.backfill", "easy"}}}};
}

}  // namespace fairway::wire::testing
