// The per-job lifecycle on one agent, with time as a parameter: events in (launch asked,
// launch done, step arrived, kill asked, process exited, steps gone, ack), actions out.
// Not thread-safe: one owner (the agent's loop). No process, file or clock here.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "shared/base/ids.h"
#include "shared/base/time.h"
#include "shared/model/job_state.h"

namespace fairway::agent {

// Where a job is on this node. AgentService kept these as map membership: launching_,
// waiting_for_cores_, jobs_ (RunningJob.completing unset / set), ended_awaiting_ack_.
enum class NodeJobPhase : std::uint8_t {
  kWaitingForCores,  // its cores are held by a job still stopping here
  kLaunching,        // handed to the launch workers; no process known yet
  kRunning,          // its keeper runs
  kCompleting,       // its script ended; its steps are in their grace
  kAwaitingAck,      // its end reported; spool files kept until the coordinator's Ack
};
std::string_view to_string(NodeJobPhase p);

namespace node_event {
struct LaunchAsked { JobId job; std::int32_t attempt = 0; bool extern_only = false; bool cores_free = true; };
struct LaunchDone { JobId job; bool ok = true; std::string error; };
struct StepArrived { JobId job; std::int32_t step = 0; };
struct KillAsked { JobId job; std::int32_t signal = 15; Duration grace; };
struct ProcessExited { JobId job; JobState state = JobState::kCompleted; bool steps_left = false; };
struct StepsGone { JobId job; };
struct Reported { JobId job; std::uint64_t seq = 0; };
struct AckReceived { std::uint64_t seq = 0; };
}  // namespace node_event
using NodeEvent = std::variant<node_event::LaunchAsked, node_event::LaunchDone, node_event::StepArrived,
                               node_event::KillAsked, node_event::ProcessExited, node_event::StepsGone,
                               node_event::Reported, node_event::AckReceived>;

enum class HostActionKind : std::uint8_t {
  kStartProcess,  // hand the launch to the workers (cgroup prepared)
  kStartStep,     // start step `step`'s relay in the job's cgroup
  kRefuseStep,    // the job does not run here
  kSignal,        // `signal` with `grace` to the job (and its steps)
  kReport,        // a status update: `state`, `reason`
  kRemoveCgroup,
  kReleaseCores,
  kForgetJob,     // its checkpoint, exit record and script leave the spool
  kRetryLaunch,   // a launch held back (waiting or deferred) is asked again
};

struct HostAction {
  HostActionKind kind = HostActionKind::kReport;
  JobId job;
  std::int32_t step = 0;
  std::int32_t signal = 0;
  Duration grace;
  JobState state = JobState::kCompleted;
  std::string reason;
  bool operator==(const HostAction&) const = default;
};

class NodeJobs {
 public:
  struct Record {
    NodeJobPhase phase = NodeJobPhase::kLaunching;
    std::int32_t attempt = 0;
    bool extern_only = false;
    bool stopping = false;                       // the coordinator signalled it
    std::vector<std::int32_t> steps_before_start;  // started once it runs here
    std::optional<std::pair<std::int32_t, Duration>> signal_while_launching;
    bool next_run_deferred = false;              // a new run waits for this one's end
    std::uint64_t final_seq = 0;                 // kAwaitingAck: the report the Ack names
    JobState final_state = JobState::kCompleted;
  };

  std::vector<HostAction> apply(const NodeEvent& event, Time now);

  const Record* find(JobId job) const;
  std::size_t size() const { return jobs_.size(); }
  bool any_stopping() const;

 private:
  std::vector<HostAction> on(const node_event::LaunchAsked& e, Time now);
  std::vector<HostAction> on(const node_event::LaunchDone& e, Time now);
  std::vector<HostAction> on(const node_event::StepArrived& e, Time now);
  std::vector<HostAction> on(const node_event::KillAsked& e, Time now);
  std::vector<HostAction> on(const node_event::ProcessExited& e, Time now);
  std::vector<HostAction> on(const node_event::StepsGone& e, Time now);
  std::vector<HostAction> on(const node_event::Reported& e, Time now);
  std::vector<HostAction> on(const node_event::AckReceived& e, Time now);
  // The job's end: cgroup and cores go, the report goes out, and held launches are retried.
  std::vector<HostAction> end(JobId job, Record& r);

  std::map<std::uint64_t, Record> jobs_;
};

// Whether `event` may move a job from `from` to `to` (the lifecycle table).
bool node_job_transition_allowed(NodeJobPhase from, NodeJobPhase to);

}  // namespace fairway::agent
