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
  return a.node == b.node && a.agent_version == b.agent_version &&
         equal(a.topology, b.topology) && a.running == b.running;
}

// id and submit_time are not sent (the coordinator assigns them), so they are not compared.
inline bool equal(const JobSpec& a, const JobSpec& b) {
  return a.name == b.name && a.user == b.user && a.account == b.account &&
         a.partition == b.partition && a.qos == b.qos && a.resources == b.resources &&
         a.time_limit == b.time_limit && a.requeue == b.requeue &&
         a.interactive == b.interactive && a.hold == b.hold;
}

inline bool equal(const SubmitRequest& a, const SubmitRequest& b) {
  return a.client_token == b.client_token && equal(a.spec, b.spec) && a.program == b.program;
}

template <typename T>
bool equal(const T& a, const T& b) {
  return a == b;
}

inline AgentRegister sample_agent_register() {
  AgentRegister m;
  m.node = "gpu-node-07";
  m.agent_version = "0.1.0+g1234abc";
  m.topology = NodeTopology::uniform("gpu-node-07", 2, 24, 2, "a100", 2);
  m.topology.sockets[1].cores = 20;  // deliberately non-uniform
  m.topology.memory_mb = 512 * 1024;
  m.topology.features = {"ib", "nvme", "ünïcode"};
  m.running.push_back({JobId(42), {0, 1, 2, 3}, {0}, Time::from_seconds(1'700'000'000), 12345});
  m.running.push_back({JobId(std::uint64_t{1} << 40), {24, 25}, {}, Time::from_seconds(-5),
                       std::int64_t{1} << 33});
  return m;
}

inline Heartbeat sample_heartbeat() {
  return Heartbeat{"node-001", std::uint64_t{0xFFFF'FFFF'FFFF'FFF0},
                   Time::from_seconds(1'700'000'123)};
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
  m.cores = {4, 5, 6, 7, 28, 29};
  m.gpus = {1};
  m.time_limit = Duration::hours(48);
  m.nodelist = {"cn01", "cn02"};
  m.partition = "batch";
  return m;
}

inline SignalJob sample_signal() { return SignalJob{JobId(5), 10, Duration::seconds(30)}; }

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
  m.program.script = "";
  m.program.argv = {"hostname"};
  m.program.working_dir = "/scratch/bob";
  m.program.stdout_path = "out.txt";
  m.program.stderr_path = "err.txt";
  m.program.env = {{"OMP_NUM_THREADS", "16"}};
  return m;
}

// One valid message of every type (and both shapes of JobStatusUpdate).
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
          SubmitReply{JobId(31337)}};
}

}  // namespace fairway::wire::testing
