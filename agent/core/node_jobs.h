// The per-job lifecycle on one agent, with time as a parameter: events in (launch asked,
// launch done, step arrived, kill asked, process exited, steps gone, ack), actions out.
// AgentService turns frames and host callbacks into these events and carries out the
// actions through its AgentHost.
// Not thread-safe: one owner (the agent's loop). No process, file or clock here.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "shared/base/ids.h"
#include "shared/base/time.h"
#include "shared/model/job_state.h"

namespace fairway::agent {

// Where a job is on this node. AgentService kept these as map membership (launching_,
// waiting_for_cores_, jobs_ with RunningJob.completing unset or set, ended_awaiting_ack_);
// a job in none of them is not here.
enum class NodeJobPhase : std::uint8_t {
  kWaitingForCores,  // its cores are held by a job still stopping here
  kLaunching,        // handed to the launch workers; no process known yet
  kRunning,          // its keeper runs
  kCompleting,       // its script ended; its steps are in their grace
  kAwaitingAck,      // its end reported; spool files kept until the coordinator's Ack
};
std::string_view to_string(NodeJobPhase p);

namespace node_event {
// The coordinator asked for a run (or, retry, a held-back launch is asked again).
struct LaunchAsked {
  JobId job;
  std::int32_t attempt = 0;
  bool extern_only = false;
  bool retry = false;
};
// The node's ledger refused the launch's cores (`why`).
struct CoresTaken {
  JobId job;
  std::string why;
};
// The launch workers handed the job back: running, or not (`error`).
struct LaunchDone {
  JobId job;
  bool ok = true;
  std::string error;
};
// Found in a checkpoint at the agent's start: running still, or ended while no agent
// watched (its end is reported as it is found).
struct Readopted {
  JobId job;
  std::optional<std::int32_t> attempt;
  bool extern_only = false;
  bool ended = false;
};
struct StepArrived {
  JobId job;
  std::int32_t step = 0;
};
struct KillAsked {
  JobId job;
  std::int32_t signal = 15;
  Duration grace;
};
// Its script ended; steps_left: its steps (or its script's other processes) still run.
struct ProcessExited {
  JobId job;
  JobState state = JobState::kCompleted;
  bool steps_left = false;
};
struct StepsGone {
  JobId job;
};
// Its final report went out as update `seq`.
struct Reported {
  JobId job;
  std::uint64_t seq = 0;
};
struct AckReceived {
  std::uint64_t seq = 0;
};
}  // namespace node_event
using NodeEvent = std::variant<node_event::LaunchAsked, node_event::CoresTaken, node_event::LaunchDone,
                               node_event::Readopted, node_event::StepArrived, node_event::KillAsked,
                               node_event::ProcessExited, node_event::StepsGone, node_event::Reported,
                               node_event::AckReceived>;

enum class HostActionKind : std::uint8_t {
  kStartProcess,  // take the launch's cores, prepare its cgroup, hand it to the workers
  kStartStep,     // start step `step`'s relay in the job's cgroup
  kRefuseStep,    // the job does not run here
  kSignal,        // `signal` with `grace` to the job (and its steps)
  kReport,        // a status update: `state`, `reason`, naming run `attempt`
  kRemoveCgroup,  // what it counted is read, then it goes
  kReleaseCores,
  kForgetJob,    // its checkpoint, exit record and script leave the spool
  kRetryLaunch,  // a launch held back (waiting or deferred) is asked again
};

struct HostAction {
  HostActionKind kind = HostActionKind::kReport;
  JobId job;
  std::int32_t step = 0;
  std::int32_t signal = 0;
  Duration grace;
  JobState state = JobState::kCompleted;
  std::string reason;
  std::optional<std::int32_t> attempt;  // kReport: the run it is about (unknown: an old checkpoint)
  bool operator==(const HostAction&) const = default;
};

class NodeJobs {
 public:
  struct Record {
    NodeJobPhase phase = NodeJobPhase::kLaunching;
    // The run (LaunchJob.restarts) its reports name, so that the coordinator never takes
    // an earlier run's end for a later one's; unset for a job re-adopted from a checkpoint
    // older than the field.
    std::optional<std::int32_t> attempt;
    bool extern_only = false;  // it holds the cgroup of a job run from another node
    bool stopping = false;     // the coordinator signalled it while it ran (or was being launched)
    std::vector<std::int32_t> steps_before_start;  // started once it runs here
    std::optional<std::pair<std::int32_t, Duration>> signal_while_launching;
    // A new run waits for this one's end (a stop that comes meanwhile cancels it); its
    // attempt, and whether it only holds the cgroup of a job run from another node.
    bool next_run_deferred = false;
    std::int32_t next_attempt = 0;
    bool next_extern_only = false;
    std::uint64_t final_seq = 0;  // kAwaitingAck: the report the Ack names
    JobState final_state = JobState::kCompleted;
  };

  // `node` names this node in the reasons reported.
  explicit NodeJobs(std::string node) : node_(std::move(node)) {}

  std::vector<HostAction> apply(const NodeEvent& event, Time now);

  const Record* find(JobId job) const;
  std::size_t size() const { return jobs_.size(); }
  // A job here that the coordinator stopped (or whose steps are in their grace): the
  // cores it holds come free once it ends, and a launch asking for them waits.
  bool any_stopping() const;

 private:
  std::vector<HostAction> on(const node_event::LaunchAsked& e, Time now);
  std::vector<HostAction> on(const node_event::CoresTaken& e, Time now);
  std::vector<HostAction> on(const node_event::LaunchDone& e, Time now);
  std::vector<HostAction> on(const node_event::Readopted& e, Time now);
  std::vector<HostAction> on(const node_event::StepArrived& e, Time now);
  std::vector<HostAction> on(const node_event::KillAsked& e, Time now);
  std::vector<HostAction> on(const node_event::ProcessExited& e, Time now);
  std::vector<HostAction> on(const node_event::StepsGone& e, Time now);
  std::vector<HostAction> on(const node_event::Reported& e, Time now);
  std::vector<HostAction> on(const node_event::AckReceived& e, Time now);
  // What a launch asked for a job already here is: this run (or the run waiting for it)
  // asked again, a new run that waits for this one's end, or a run that starts now.
  enum class Asked : std::uint8_t { kResend, kAfterThisRun, kStartNow };
  static Asked what_is(const Record& r, const node_event::LaunchAsked& e);
  // The job leaves before it ran (refused, its launch failed); a new run waiting for it is
  // asked again.
  void drop(std::map<std::uint64_t, Record>::iterator it, std::vector<HostAction>& out);
  // The job's end: cgroup and cores go, the report goes out, and held launches are retried.
  std::vector<HostAction> end(JobId job, Record& r);
  HostAction report(JobId job, const Record& r, JobState state, std::string reason = {}) const;

  std::string node_;
  std::map<std::uint64_t, Record> jobs_;
};

// Whether a job may move from `from` to `to` (the lifecycle table). A job also leaves
// (its record dropped) from kWaitingForCores or kLaunching when it cannot start, from
// kAwaitingAck on its Ack, and at its end when it only held a cgroup.
bool node_job_transition_allowed(NodeJobPhase from, NodeJobPhase to);

}  // namespace fairway::agent
