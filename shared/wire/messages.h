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
#include "shared/wire/config_messages.h"
#include "shared/wire/report_messages.h"
#include "shared/wire/step_messages.h"

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
  kJobQuery = 10,
  kJobQueryReply = 11,
  kJobControl = 12,
  kJobControlReply = 13,
  kNodeQuery = 14,
  kNodeQueryReply = 15,
  kSubmitBatch = 16,
  kSubmitBatchReply = 17,
  kNodeControl = 18,
  kNodeControlReply = 19,
  kAuthenticatedRequest = 20,
  kHeartbeatReply = 21,
  kMetricsQuery = 22,
  kMetricsReply = 23,
  kPartitionQuery = 24,
  kPartitionQueryReply = 25,
  kSharesQuery = 26,
  kSharesReply = 27,
  kJobUpdate = 28,
  kSetTimeLimit = 29,
  kSendSignal = 30,
  kReservationQuery = 31,
  kReservationQueryReply = 32,
  kStepRequest = 33,
  kStepReply = 34,
  kLaunchStep = 35,
  kStepIo = 36,
  kConfigQuery = 37,
  kConfigReply = 38,
  kStepEnded = 39,
};

std::string_view to_string(MessageType t);

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
  // How the node holds jobs to what they were given: "cgroup v2 (...)", "cgroup v1
  // (...)", or "affinity only: why". Empty from agents that predate it.
  std::string enforcement;
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
  // Why it ended when that is not the program's doing: a launch the node refused ("working
  // directory /x: No such file or directory"), a job stopped by self-fencing. "": none.
  std::string reason;
  // What its cgroup counted, on its final report (absent without cgroups).
  std::optional<std::int64_t> peak_memory_bytes;
  std::optional<std::int64_t> cpu_time_ms;
  // The run it reports on: its launch's LaunchJob.restarts. The coordinator acknowledges
  // and ignores a report of another run (an earlier run's end after a requeue). Absent
  // (older agents, a job the agent knows no launch of): taken as the current run.
  std::optional<std::int32_t> attempt = std::nullopt;
  bool operator==(const JobStatusUpdate&) const = default;
};

// What to run and where its output goes: written by the user at submission and carried
// unchanged to the agent that launches it.
struct JobProgram {
  std::string script;  // empty when argv is used (--wrap)
  std::vector<std::string> argv;
  std::string working_dir;
  std::vector<EnvVar> env;  // order kept: later entries override earlier ones
  std::string stdout_path;
  std::string stderr_path;
  bool open_append = false;  // --open-mode=append: never truncate the output files
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
  std::int32_t restarts = 0;  // earlier runs (requeues): its output is appended, not truncated
  // The authenticated submitter: the agent runs the job as exactly these and refuses a
  // launch whose `user` is another uid on the node. Unset: look `user` up (older jobs).
  std::optional<std::uint32_t> uid;
  std::optional<std::uint32_t> gid;
  // The coordinator's rule for this node ([[partitions]] socket_exclusive_gpus): a job
  // holding a GPU keeps its socket's cores. The agent enforces exactly this rule, so it
  // never refuses a placement the coordinator made under the other. Absent: true.
  bool fence_gpu_sockets = true;
  // The user's task split and each node's core count (in nodelist order), from which the
  // agent derives SLURM_NTASKS, SLURM_TASKS_PER_NODE, SLURM_JOB_CPUS_PER_NODE. Absent
  // (older coordinators): node_cores empty, the agent knows only its own node.
  TaskLayout tasks;
  std::vector<std::int32_t> node_cores;
  // The job's memory limit on this node (--mem, or --mem-per-cpu x its cores here).
  std::optional<std::int64_t> memory_limit_bytes;
  // JobSpec's --signal warning (0: none).
  std::int32_t warn_signal = 0;
  std::int32_t warn_before_s = 0;
  bool warn_batch_only = false;
  // A task of a job array: what it is told of itself and its array.
  ArrayTaskFacts array;
  // Another node of a multi-node job: nothing runs here but what holds the job's cores,
  // GPUs and cgroup for its steps (Slurm's extern step), until the coordinator ends it.
  bool extern_only = false;
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
  // sbatch --test-only: checked and planned as a submission, never queued.
  bool test_only = false;
};

struct SubmitReply {
  JobId job;  // 0 for a test_only request: nothing was queued
  // test_only: when it would start (unset: no start can be promised, `reason` says why),
  // where, and on how many cores.
  bool test_only = false;
  std::optional<Time> estimated_start{};
  std::string partition{};
  std::vector<std::string> nodes{};
  std::int64_t cores = 0;
  std::string reason{};
  bool operator==(const SubmitReply&) const = default;
};

// ---- Client <-> coordinator queries and control (fairway CLI). Replies carry views: what
// a user may see of a job or node, already rendered to names (no internal indices).

// Client -> coordinator: `fairway queue` and `fairway show job`.
struct JobQuery {
  std::vector<JobId> jobs;       // empty: all
  std::string user;              // empty: any
  std::string partition;         // empty: any
  std::vector<JobState> states;  // empty: waiting and running (and, with include_finished, all)
  bool include_finished = false;
  // Paging, so that a queue of any depth fits in bounded frames: jobs with ids above
  // `after`, at most `limit` of them (0: the coordinator's page size).
  JobId after;
  std::int32_t limit = 0;
  // Accounting (`fairway history`): finished jobs from the store, however old, filtered
  // by account and by when they ended ([ended_after, ended_before)).
  bool from_store = false;
  std::string account;
  std::optional<Time> ended_after, ended_before;
  // squeue -r: an array's waiting tasks one per line (id: the task's) instead of folded.
  bool expand_arrays = false;
  // sacct: each job's steps with it (JobView.steps); finished jobs from the store always have them.
  bool with_steps = false;
  bool operator==(const JobQuery&) const = default;
};

// Node-local core and GPU numbers a running job holds on one node.
struct JobAllocationView {
  std::string node;
  std::vector<std::int32_t> cores;
  std::vector<std::int32_t> gpus;
  bool operator==(const JobAllocationView&) const = default;
};

// A step of a job (srun inside it, `fairway run`): ID.N in sacct. It ran on the job's first
// `nodes` nodes; its exit is its worst task's (the highest wait status, as Slurm's).
struct StepView {
  std::int32_t step = 0;
  std::string name;  // the command's base name
  JobState state = JobState::kRunning;
  Time start_time;
  std::optional<Time> end_time;
  std::int32_t exit_code = 0;
  std::int32_t signal = 0;
  std::int32_t ntasks = 0;
  std::int32_t nodes = 0;
  // Measured by its relays (absent for steps recorded before, or whose srun died).
  std::optional<std::int64_t> max_rss_kb = {};
  std::optional<std::int64_t> cpu_us = {};
  bool operator==(const StepView&) const = default;
};

struct PriorityFactor {
  std::string name;  // "age", "fairshare", "qos", "partition", "size", ...
  double value = 0;  // weighted: the points it adds
  double raw = 0;    // before its weight (minutes, a factor, a count); 0 from older peers
  bool operator==(const PriorityFactor&) const = default;
};

struct JobView {
  JobId id;
  std::string name;
  std::string user;
  std::string account;
  std::string partition;
  std::string qos;
  JobState state = JobState::kPending;
  std::vector<std::string> reasons;       // short codes: "Resources", "Priority", "Held", ...
  std::vector<std::string> reason_texts;  // one sentence each, same order
  Time submit_time;
  std::optional<Time> start_time;
  std::optional<Time> end_time;
  std::optional<Time> estimated_start;
  // scheduler.runtime_prediction: the run backfill plans with (waiting or running), and,
  // for `show job` of one waiting job, its start were every job planned by its limit.
  std::optional<Duration> predicted_runtime;
  std::optional<Time> estimated_start_by_limit;
  Duration time_limit;
  // As requested (ResourceRequest): per node when nodes > 0, totals otherwise.
  std::int32_t nodes = 0;
  std::int32_t cores = 1;
  std::int32_t gpus = 0;
  std::string gpu_type;
  // --mem (per node) or --mem-per-cpu (per core), or the partition's default; 0: none.
  std::int64_t memory_per_node_mb = 0;
  std::int64_t memory_per_cpu_mb = 0;
  std::vector<JobAllocationView> allocation;
  double priority = 0;
  std::vector<PriorityFactor> priority_factors;
  std::optional<std::int32_t> exit_code;
  std::optional<std::int32_t> signal;
  std::string working_dir;
  std::string stdout_path;
  std::string stderr_path;
  std::int32_t requeue_count = 0;
  // Why it ended (launch refused, node lost, cancelled by whom) or was last requeued.
  std::string state_reason;
  // Counted by its cgroup on the node that ran its script (absent without cgroups).
  std::optional<std::int64_t> peak_memory_bytes;
  std::optional<std::int64_t> cpu_time_ms;
  std::string reservation;  // --reservation, empty when none
  // A job array's task (array_job 0: not one): `array_tasks` is its index ("7"), or, for
  // the line that stands for an array's waiting tasks, their folded list ("[5-100%10]").
  JobId array_job;
  std::string array_tasks;
  // The submitter as authenticated, and the task split asked for (0: not given): what
  // scontrol show job prints as UserId=alice(1001), NumTasks and CPUs/Task.
  std::optional<std::uint32_t> uid, gid;
  std::int32_t ntasks = 0;
  std::int32_t cpus_per_task = 0;
  bool interactive = false;     // an allocation (alloc, run outside a job): it has no batch script
  std::vector<StepView> steps;  // its steps, by number (history only; sent when any)
  // Cancelled while running, its processes not yet ended (state kCompleting meanwhile):
  // Slurm's CANCELLED with its COMPLETING flag, which sacct shows as CANCELLED at once.
  bool cancelling = false;
  // Its processes being stopped (state kCompleting meanwhile), the state the stop was
  // decided as: kCancelled (with `cancelling`), kTimeout (its time limit passed) or
  // kRequeued (scontrol requeue). Slurm's accounting shows that state from the moment of
  // the decision, not when the processes are gone.
  std::optional<JobState> stopping_as;
  // sbatch --comment and --nice, as squeue (%k, %y) and scontrol show them; sent when set.
  std::string comment;
  std::int32_t nice = 0;
  // What the job asked for, as scontrol shows it (NtasksPerN:B:S:C, OverSubscribe,
  // ReqNodeList, ExcNodeList, Features, Requeue, MailUser/MailType); sent when set.
  std::int32_t ntasks_per_node = 0;
  bool exclusive = false;
  std::vector<std::string> req_nodes;
  std::vector<std::string> exc_nodes;
  std::string features;
  bool no_requeue = false;
  std::uint8_t mail_events = 0;  // JobMailEvent bits
  std::string mail_user;
  GpuAsk gpu_ask;  // the GPU request as asked (TresPer*, CpusPerTres, MemPerTres, %b)
  bool operator==(const JobView&) const = default;
};

struct JobQueryReply {
  Time now;  // the coordinator's clock, so elapsed times do not depend on the client's
  std::vector<JobView> jobs;
  bool more = false;        // further pages: ask again with `after` = the last job's id
  std::uint64_t total = 0;  // jobs matching the query, over all pages
  bool operator==(const JobQueryReply&) const = default;
};

// Wire values are forever, as for MessageType.
// kEndAllocation: an allocation's own client (salloc, srun outside a job) ends it with
// its command's outcome, so that it ends COMPLETED or FAILED with that exit code, as in
// Slurm, not CANCELLED. Only for interactive jobs.
enum class JobAction : std::uint8_t {
  kCancel = 1,
  kHold = 2,
  kRelease = 3,
  kRequeue = 4,
  kSignal = 5,
  kEndAllocation = 6
};

std::string_view to_string(JobAction a);

// Client -> coordinator: `fairway cancel|hold|release|requeue`. `user` is who asks.
struct JobControl {
  JobAction action = JobAction::kCancel;
  std::vector<JobId> jobs;
  std::string user;
  // kSignal (fairway cancel --signal): which signal, and whether to the batch script
  // alone (-b); the running jobs are signalled, not ended.
  std::int32_t signal = 0;
  bool batch_only = false;
  // Single tasks of arrays ("42_7"): the array's id and the task's index, in pairs.
  std::vector<JobId> task_arrays{};
  std::vector<std::int32_t> task_indices{};
  // kEndAllocation: the command's exit code (0-255) and the signal that killed it (0: none).
  std::int32_t exit_code = 0;
  bool operator==(const JobControl&) const = default;
};

struct JobControlResult {
  JobId job;
  bool ok = false;
  std::string message;  // why it failed; may say what happened when it succeeded
  // Why it failed, as a code (kNotFound: no such job; kFailedPrecondition: it has
  // already ended): scancel keeps quiet about those two, as Slurm's does.
  ErrorCode code = ErrorCode::kInternal;
  bool operator==(const JobControlResult&) const = default;
};
// One job's result from what acting on it returned.
inline JobControlResult control_result(JobId job, const Status& st) {
  if (st) return {job, true, {}, ErrorCode::kInternal};
  return {job, false, st.error().message, st.error().code};
}

struct JobControlReply {
  std::vector<JobControlResult> results;  // one per requested job, same order
  bool operator==(const JobControlReply&) const = default;
};

struct NodeQuery {
  std::vector<std::string> nodes;  // empty: all
  bool operator==(const NodeQuery&) const = default;
};

struct NodeView {
  std::string name;
  std::string state;  // "idle", "mixed", "allocated", "down", "drained"
  std::vector<std::string> partitions;
  std::int32_t sockets = 0;
  std::int32_t cores = 0;  // total over all sockets
  std::int32_t threads_per_core = 1;
  std::int32_t gpus = 0;
  std::vector<std::string> gpu_types;
  std::int32_t cores_used = 0;
  std::int32_t gpus_used = 0;
  std::int64_t memory_mb = 0;       // offered to jobs; 0: not declared, not scheduled
  std::int64_t memory_used_mb = 0;  // held by its running jobs
  std::optional<Time> last_heartbeat;
  std::string reason;  // why it is down or drained
  // Who set the reason and when (sinfo -R): the admin who drained it, or the coordinator's
  // own user for a node that stopped answering. Optional keys: unset when no reason.
  std::string reason_user;
  std::optional<std::uint32_t> reason_uid;
  std::optional<Time> reason_time;
  std::vector<JobId> jobs;            // running on it
  std::string enforcement;            // as its agent registered it (AgentRegister::enforcement)
  std::vector<std::string> features;  // [[nodes]] features (-C); an optional key
  bool operator==(const NodeView&) const = default;
};

struct NodeQueryReply {
  std::vector<NodeView> nodes;
  bool operator==(const NodeQueryReply&) const = default;
};

// Client -> coordinator: many submissions in one round trip (batch API).
struct SubmitBatch {
  std::vector<SubmitRequest> requests;
};

struct SubmitResult {
  std::optional<JobId> job;  // set when accepted
  std::string error;         // why it was refused
  bool operator==(const SubmitResult&) const = default;
};

struct SubmitBatchReply {
  std::vector<SubmitResult> results;  // same order as the requests
  bool operator==(const SubmitBatchReply&) const = default;
};

// Alternatives in MessageType order: message_type() is the index plus one.
// Admin -> coordinator: drain (no new jobs; running ones finish) or resume nodes.
enum class NodeAction : std::uint8_t { kDrain = 1, kResume = 2 };
struct NodeControl {
  NodeAction action = NodeAction::kDrain;
  std::vector<std::string> nodes;
  std::string reason;  // shown by `fairway nodes`; required to drain
  std::string user;
  bool operator==(const NodeControl&) const = default;
};
struct NodeControlResult {
  std::string node;
  bool ok = false;
  std::string message;
  bool operator==(const NodeControlResult&) const = default;
};
struct NodeControlReply {
  std::vector<NodeControlResult> results;  // same order as the request's nodes
  bool operator==(const NodeControlReply&) const = default;
};

// Client -> coordinator: any client request, carried with a credential that names the
// caller (who asks is never taken from the request itself). `request` is an encoded
// client frame; the credential's payload binds it to exactly those bytes.
struct AuthenticatedRequest {
  std::string credential;
  std::string request;
  bool operator==(const AuthenticatedRequest&) const = default;
};

// Coordinator -> agent: the answer to a Heartbeat. An agent that hears none for its lease
// stops its jobs, so that the coordinator may start them elsewhere (self-fencing).
struct HeartbeatReply {
  std::uint64_t seq = 0;  // the Heartbeat's seq
  bool operator==(const HeartbeatReply&) const = default;
};

using Message = std::variant<AgentRegister, Heartbeat, JobStatusUpdate, LaunchJob, SignalJob, Ack, ErrorReply,
                             SubmitRequest, SubmitReply, JobQuery, JobQueryReply, JobControl, JobControlReply,
                             NodeQuery, NodeQueryReply, SubmitBatch, SubmitBatchReply, NodeControl,
                             NodeControlReply, AuthenticatedRequest, HeartbeatReply, MetricsQuery,
                             MetricsReply, PartitionQuery, PartitionQueryReply, SharesQuery, SharesReply,
                             JobUpdate, SetTimeLimit, SendSignal, ReservationQuery, ReservationQueryReply,
                             StepRequest, StepReply, LaunchStep, StepIo, ConfigQuery, ConfigReply, StepEnded>;

MessageType message_type(const Message& m);

}  // namespace fairway::wire
