// The messages of a job step (`fairway run`, srun): the client's request, the coordinator's
// launch on each node of the job, and the stream between a node's step relay and the client.
// Plain data; included by messages.h, which lists them in the Message variant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "shared/base/ids.h"

namespace fairway::wire {

using EnvVar = std::pair<std::string, std::string>;

// Client -> coordinator: start COMMAND as a step of a running job of the caller's, with
// `ntasks` tasks over its first `nodes` nodes. The client listens at `io_address` for the
// nodes' relays, which prove themselves with `io_key` (it travels only over the
// authenticated client and agent channels).
struct StepRequest {
  JobId job;
  std::vector<std::string> argv;
  std::vector<EnvVar> env;  // the caller's environment (srun --export=ALL)
  std::string working_dir;
  std::int32_t ntasks = 0;  // 0: the job's own task count
  std::int32_t nodes = 0;   // 0: every node of the job
  std::string io_address;   // tcp://HOST:PORT
  std::string io_key;
  bool pty = false;  // srun --pty: task 0 on a pseudo-terminal (sent only when set)
  // Added later, sent only when set: which of the job's nodes and cores the step takes
  // (srun -w, -x, --ntasks-per-node, -c; 0 and empty: not asked) and how its tasks are
  // bound and numbered there (--cpu-bind, --distribution; empty: cores, block).
  std::vector<std::string> nodelist;
  std::vector<std::string> exclude;
  std::int32_t ntasks_per_node = 0;
  std::int32_t cpus_per_task = 0;
  std::string cpu_bind;
  std::string distribution;
  std::string mpi;  // srun --mpi: "pmi2" or "pmix" (empty: no PMI); sent only when set
  // srun --exclusive or --exact: the step takes cores of its own (it waits while other
  // such steps hold them); otherwise it shares the job's. Sent only when set.
  bool exclusive = false;
  bool operator==(const StepRequest&) const = default;
};

// Coordinator -> client: the step's number in its job and where its tasks run.
struct StepReply {
  JobId job;
  std::int32_t step = 0;
  std::vector<std::string> nodes;            // rank order: node i runs the next ranks
  std::vector<std::int32_t> tasks_per_node;  // one entry per node
  bool operator==(const StepReply&) const = default;
};

// Coordinator -> agent: run this node's share of a step inside the job it holds here.
struct LaunchStep {
  JobId job;
  std::int32_t step = 0;
  std::string user;
  std::optional<std::uint32_t> uid;
  std::optional<std::uint32_t> gid;
  std::vector<std::string> argv;
  std::vector<EnvVar> env;
  std::string working_dir;
  std::vector<std::string> nodes;
  std::vector<std::int32_t> tasks_per_node;
  std::int32_t node_index = 0;  // this node's place in `nodes`
  std::int32_t cpus_per_task = 1;
  std::string io_address;
  std::string io_key;
  bool pty = false;
  std::string cpu_bind;      // srun --cpu-bind (empty: cores); sent only when set
  std::string distribution;  // srun --distribution (empty: block); sent only when set
  std::string mpi;           // srun --mpi (empty: none); sent only when set
  // The job's cores here that the step holds (--exclusive); empty: all of the job's. Sent
  // only when set.
  std::vector<std::int32_t> cores;
  bool operator==(const LaunchStep&) const = default;
};

// Client (srun) -> coordinator: the step ended, with its worst task's exit: a code, or the
// signal that killed it (the other 0); and, when its relays measured them, the largest
// task's resident set and the tasks' CPU time (sacct's MaxRSS and TotalCPU of ID.N).
struct StepEnded {
  JobId job;
  std::int32_t step = 0;
  std::int32_t exit_code = 0;
  std::int32_t signal = 0;
  std::optional<std::int64_t> max_rss_kb = {};
  std::optional<std::int64_t> cpu_us = {};
  bool operator==(const StepEnded&) const = default;
};

// Between a node's step relay and the client, both ways on the relay's own connection.
enum class StepIoKind : std::uint8_t {
  kHello = 1,   // relay: data = the key; rank = its first rank, value = its task count
  kStdout = 2,  // relay: data = bytes task `rank` wrote
  kStderr = 3,
  kExit = 4,  // relay: task `rank` ended; value >= 0: exit code, < 0: -signal; data: its usage (task_usage.h)
  kDone = 5,  // relay: every task of the node ended and all output was sent
  kError = 6,     // relay: data = why (rank: the task, or -1 for the node)
  kSignal = 7,    // client: send signal `value` to every task
  kStdin = 8,     // client: data for task 0's stdin
  kStdinEnd = 9,  // client: task 0's stdin is at its end
  kPing = 10,     // client: still here (relays stop their tasks when the client is gone)
  kResize = 11,   // client: task 0's terminal is value >> 16 rows by value & 0xFFFF columns
  // MPI's key exchange (step_exchange.h), only in a step with --mpi=pmi2:
  kFence = 12,      // relay: its node entered fence `value`; data = the node's blob
  kFenceDone = 13,  // client: fence `value` is complete, data = every node's blob (joined);
                    // value -1: the fence failed, data = why
};
inline constexpr std::uint8_t kLastStepIoKind = 13;

struct StepIo {
  StepIoKind kind = StepIoKind::kPing;
  std::int32_t node_index = 0;
  std::int32_t rank = 0;
  std::int64_t value = 0;
  std::string data;
  bool operator==(const StepIo&) const = default;
};

}  // namespace fairway::wire
