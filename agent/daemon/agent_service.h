// The agent's behaviour without its socket: frames from the coordinator in, frames out;
// it launches, supervises (walltime, cancel: TERM then KILL) and reaps jobs, and
// re-adopts live jobs from its checkpoints after a restart. It dispatches: NodeJobs says
// what a job's events mean, NodeSteps keeps the steps, CoordinatorLink the coordinator.
// Not thread-safe: the agent's one event-loop thread owns it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "agent/core/job_supervisor.h"
#include "agent/core/node_jobs.h"
#include "agent/core/slot_ledger.h"
#include "agent/daemon/agent_host.h"
#include "agent/daemon/agent_options.h"
#include "agent/daemon/coordinator_link.h"
#include "agent/daemon/node_steps.h"
#include "agent/os/topology_discovery.h"

namespace fairway::agent {

// A job id as the logs show it.
inline std::string id_str(JobId id) {
  return std::to_string(id.value());
}

class AgentService {
 public:
  static Result<std::unique_ptr<AgentService>> start(DiscoveredNode node, AgentOptions options, Time now);
  // The same on `host` (a fake in tests: no process, no file).
  static Result<std::unique_ptr<AgentService>> start(DiscoveredNode node, AgentOptions options, Time now,
                                                     std::unique_ptr<AgentHost> host);

  // The event loop's monotonic clock for this turn: the lease is measured on it, so a
  // wall-clock step can neither fence jobs nor keep them past their lease.
  void set_monotonic(Time mono) { link_.set_monotonic(mono); }

  void on_frame(std::string_view frame, Time now);
  // Launches the workers finished (launch_fd() was readable): the jobs run now, or failed.
  void on_launches_done(Time now);
  int launch_fd() const { return host_->launch_fd(); }
  // SIGCHLD arrived (or might have): reap every ended child.
  void on_children(Time now);
  // Registration retries, heartbeats, walltime deadlines, resends, adopted jobs' liveness.
  void on_timer(Time now);

  // Frames for the coordinator, in order.
  std::vector<std::string> take_outgoing() { return link_.take_outgoing(); }

  bool registered() const { return link_.registered(); }
  std::size_t running() const { return jobs_.size(); }
  const std::string& node_name() const { return node_.topology.name; }
  // How jobs are held to their cores, memory and GPUs here: "cgroup v1 (...)", or
  // "affinity only: why" (JobCgroups::description).
  const std::string& enforcement() const { return host_->enforcement(); }

 private:
  struct RunningJob {
    JobSupervisor supervisor;
    std::vector<std::int32_t> cores, gpus;
    bool adopted = false;  // not our child: polled through /proc, exit status unknown
    std::uint64_t start_ticks = 0;
    bool fenced = false;                       // stopped because the coordinator was lost: reported node_fail
    std::optional<std::int64_t> memory_limit;  // bytes, when its cgroup has one
    // Set once its script ended while its steps still ran: how it ended, reported once
    // the steps are gone too (Slurm's completing); they get a stop's grace, then SIGKILL.
    struct Outcome : JobEnd {
      Time kill_at = Time::never();
      bool killed = false;
    };
    std::optional<Outcome> completing;
  };

  // What a launch not yet running here carries (NodeJobs knows where it is: waiting for
  // its cores, being launched, or, in next_runs_, a new run waiting for this run's end).
  struct HeldLaunch {
    wire::LaunchJob launch;
    Time requested;
  };
  // A job whose end is being carried out: its process record, taken off jobs_.
  struct Ending {
    JobId job;
    RunningJob run;
    RunningJob::Outcome outcome;
    JobUsage usage;
  };
  struct UnclaimedExit {
    ProcessExit exit;
    Time at;
  };
  static constexpr int kLaunchThreads = 4;

  AgentService(DiscoveredNode node, AgentOptions options, std::unique_ptr<AgentHost> host);
  // The job's lifecycle event to NodeJobs, and its actions carried out on the host.
  void dispatch(JobId job, const NodeEvent& event, Time now);
  void carry_out(const std::vector<HostAction>& actions, Time now, Ending* ending = nullptr);
  // The held launch (and a new run's) goes once NodeJobs no longer holds the job back.
  void tidy(JobId job);
  void finish_launch(JobId job, Result<LaunchedProcess> launched, Time now);
  void readopt(Time now);
  // job_launch.cpp: a launch asked by the coordinator (retry: a held one asked again), and
  // its start: cores, cgroup, then the workers.
  void on_launch(const wire::LaunchJob& l, Time now, bool retry = false);
  void start_launch(JobId job, Time now);
  void retry_launch(JobId job, Time now);
  // The script ended: its steps, if any run, get the grace before the job is reported.
  void wind_down(JobId job, RunningJob::Outcome outcome, SupervisorPhase phase, Time stop_kill_at, Time now);
  // SIGKILL for a completing job's processes once its grace is over.
  void press(JobId job, RunningJob& j, Time now);
  // A step of `job` is over: a completing job whose steps are all gone is done.
  void step_over(JobId job, Time now);
  // The jobs this node holds, as a registration names them: running, being launched, or
  // waiting for cores a stopping job holds (ours already, though no process is known yet).
  std::vector<wire::RunningJob> held_jobs(Time now) const;
  // A step asked by the coordinator: held until NodeJobs says to start or refuse it.
  void on_launch_step(const wire::LaunchStep& s, Time now);
  // The job's processes are done (`event`: its script exited, or its steps are gone): what
  // is left is killed, and NodeJobs' end (report, or for a holder forget) carried out.
  void finalize(JobId job, const NodeEvent& event, Time now);
  void on_signal(const wire::SignalJob& s, Time now);
  // kSignal: a stop for a running job; for a completing one it can only shorten the grace.
  void signal_job(JobId job, std::int32_t signal, Duration grace, Time now);
  void on_set_time_limit(const wire::SetTimeLimit& m);
  void on_send_signal(const wire::SendSignal& m);
  // The supervisor's signals; one to the job's group reaches its steps' groups too.
  void apply(const std::vector<SupervisorAction>& actions);
  void ended(JobId job, ProcessExit exit, Time now);
  void fence(Time now);

  DiscoveredNode node_;
  AgentOptions options_;
  std::unique_ptr<AgentHost> host_;
  CoordinatorLink link_;
  // The steps of the jobs here (and those held for a job not running yet).
  NodeSteps steps_;
  // Each job's place in its lifecycle here (waiting for cores, launching, running,
  // completing, awaiting the Ack), its run, and what is held back for it.
  NodeJobs node_jobs_;
  // The launches NodeJobs holds back or has handed to the workers.
  std::unordered_map<std::uint64_t, HeldLaunch> held_;
  // A job's new run that waits for the run here (launched, running or stopping) to end.
  std::unordered_map<std::uint64_t, HeldLaunch> next_runs_;
  // Reaped children no job claimed yet: a keeper can end before its launch is handed back.
  std::unordered_map<std::int64_t, UnclaimedExit> unclaimed_exits_;
  SlotLedger ledger_;
  std::unordered_map<std::uint64_t, RunningJob> jobs_;
  std::unordered_map<std::int64_t, JobId> by_pid_;
  bool fenced_ = false;  // jobs stopped for a silent coordinator, not heard since
};

}  // namespace fairway::agent
