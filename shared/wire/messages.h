// One plain struct per message exchanged by the coordinator, agents and clients, and the
// Message variant the codec works on. Plain data: no shared state, thread-safe as values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "shared/base/ids.h"
#include "shared/base/result.h"
#include "shared/base/time.h"
#include "shared/model/job_spec.h"
#include "shared/model/job_state.h"
#include "shared/model/topology.h"

namespace fairway::wire {

// Wire values are forever: never renumber, only append. 0 is reserved for "unknown".
enum class MessageType : std::uint16_t {
  kAgentRegister = 1,
  kHeartbeat = 2,
  kJobStatusUpdate = 3,
  kLaunchJob = 4,
  kSignalJob = 5,
  kAck = 6,
  kErrorReply = 7,
  kSubmitRequest = 8,
  kSubmitReply = 9,
};

std::string_view to_string(MessageType t);

using EnvVar = std::pair<std::string, std::string>;

// A job an agent already runs, reported on (re-)registration so that the coordinator can
// reconcile instead of double-running it. Cores and GPUs are node-local numbers.
struct RunningJob {
  JobId job;
  std::vector<std::int32_t> cores;
  std::vector<std::int32_t> gpus;
  Time start;
  std::int64_t pid = 0;
  bool operator==(const RunningJob&) const = default;
};

// Agent -> coordinator on connect and after every agent restart.
struct AgentRegister {
  std::string node;
  std::string agent_version;
  NodeTopology topology;  // NodeTopology has no operator==; compare with equal() in tests
  std::vector<RunningJob> running;
};

// Agent -> coordinator, periodically; seq lets the coordinator spot gaps and restarts.
struct Heartbeat {
  std::string node;
  std::uint64_t seq = 0;
  Time time;
  bool operator==(const Heartbeat&) const = default;
};

// Agent -> coordinator; resent until an Ack carrying the same seq arrives.
struct JobStatusUpdate {
  std::string node;
  std::uint64_t seq = 0;
  JobId job;
  JobState state = JobState::kRunning;
  std::optional<std::int32_t> exit_code;  // set once the job's processes have exited
  std::optional<std::int32_t> signal;     // the signal that ended it, if any
  Time time;
  bool operator==(const JobStatusUpdate&) const = default;
};

// What to run and where its output goes: written by the user at submission and carried
// unchanged to the agent that launches it.
struct JobProgram {
  std::string script;             // empty when argv is used (--wrap)
  std::vector<std::string> argv;
  std::string working_dir;
  std::vector<EnvVar> env;        // order kept: later entries override earlier ones
  std::string stdout_path;
  std::string stderr_path;
  bool operator==(const JobProgram&) const = default;
};

// Coordinator -> agent: start this job's processes on the given node-local cores/GPUs.
struct LaunchJob {
  JobId job;
  std::string user;
  std::string account;
  std::string name;
  JobProgram program;
  std::vector<std::int32_t> cores;
  std::vector<std::int32_t> gpus;
  Duration time_limit;
  std::vector<std::string> nodelist;  // every node of the job, this one first
  std::string partition;
  bool operator==(const LaunchJob&) const = default;
};

// Coordinator -> agent: send `signal`, then SIGKILL after `grace` if still alive.
struct SignalJob {
  JobId job;
  std::int32_t signal = 15;
  Duration grace;
  bool operator==(const SignalJob&) const = default;
};

struct Ack {
  std::uint64_t seq = 0;
  bool operator==(const Ack&) const = default;
};

// The reply to any request that failed, including a frame that could not be decoded.
struct ErrorReply {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  bool operator==(const ErrorReply&) const = default;
};

// Client -> coordinator. spec.id and spec.submit_time are assigned by the coordinator and
// are not sent. A retried request with the same client_token must not create a second job.
struct SubmitRequest {
  std::string client_token;
  JobSpec spec;  // JobSpec has no operator==; compare with equal() in tests
  JobProgram program;
};

struct SubmitReply {
  JobId job;
  bool operator==(const SubmitReply&) const = default;
};

using Message = std::variant<AgentRegister, Heartbeat, JobStatusUpdate, LaunchJob, SignalJob,
                             Ack, ErrorReply, SubmitRequest, SubmitReply>;

MessageType message_type(const Message& m);

}  // namespace fairway::wire
