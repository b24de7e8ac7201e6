// The agent's behaviour without its socket: frames from the coordinator in, frames out;
// it launches, supervises (walltime, cancel: TERM then KILL) and reaps jobs, and
// re-adopts live jobs from its checkpoints after a restart.
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
#include "agent/daemon/status_outbox.h"
#include "agent/os/topology_discovery.h"

namespace fairway::agent {

// A job id as the logs show it.
inline std::string id_str(JobId id) {
  return std::to_string(id.value());
}

struct AgentOptions {
  std::string spool_dir;
  Duration heartbeat_interval = Duration::seconds(5);
  Duration kill_grace = Duration::seconds(30);
  // Silent coordinator for longer than this: stop every job (self-fencing), so that the
  // coordinator may start them elsewhere without running them twice.
  Duration coordinator_lease = Duration::seconds(60);
  bool allow_root_jobs = false;
  // Host discovery binds jobs to their cores for real; a --topology model cannot.
  bool apply_binding = true;
  std::string version = "0.1.0";
  // Per-job cgroups (only with apply_binding: a --topology model's cores are not this
  // machine's). require_enforcement: refuse to start without them.
  CgroupOptions cgroups;
  bool require_enforcement = false;
  std::int64_t max_pids_per_job = 0;  // 0: no limit
  // fairway-step: runs a node's share of a job step, and holds the job's cgroup on the
  // other nodes of a multi-node job (fairway-step --hold). Empty: beside fairway-agent.
  std::string step_relay_path;
};

class AgentService {
 public:
  static Result<std::unique_ptr<AgentService>> start(DiscoveredNode node, AgentOptions options, Time now);
  // The same on `host` (a fake in tests: no process, no file).
  static Result<std::unique_ptr<AgentService>> start(DiscoveredNode node, AgentOptions options, Time now,
                                                     std::unique_ptr<AgentHost> host);

  // The event loop's monotonic clock for this turn: the lease is measured on it, so a
  // wall-clock step can neither fence jobs nor keep them past their lease.
  void set_monotonic(Time mono) { mono_ = mono; }

  void on_frame(std::string_view frame, Time now);
  // Launches the workers finished (launch_fd() was readable): the jobs run now, or failed.
  void on_launches_done(Time now);
  int launch_fd() const { return host_->launch_fd(); }
  // SIGCHLD arrived (or might have): reap every ended child.
  void on_children(Time now);
  // Registration retries, heartbeats, walltime deadlines, resends, adopted jobs' liveness.
  void on_timer(Time now);

  // Frames for the coordinator, in order.
  std::vector<std::string> take_outgoing();

  bool registered() const { return registered_; }
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
    std::vector<std::int64_t> step_groups;     // its steps' process groups, killed with it
    // Set once its script ended while its steps still ran: how it ended, reported once
    // the steps are gone too (Slurm's completing); they get a stop's grace, then SIGKILL.
    struct Outcome {
      JobState state = JobState::kCompleted;
      std::optional<std::int32_t> exit_code, signal;
      std::string reason;
      Time kill_at = Time::never();
      bool killed = false;
      // What its script used as its keeper saw it: the figures when no cgroup counted.
      std::optional<std::int64_t> max_rss_kb, cpu_us;
    };
    std::optional<Outcome> completing;
  };

  // What a launch not yet running here carries (NodeJobs knows where it is: waiting for
  // its cores, being launched, or a new run waiting for this run's end).
  struct HeldLaunch {
    wire::LaunchJob launch;
    Time requested;
    std::vector<wire::LaunchStep> steps;  // came before the job ran here: started after it
  };
  // A job whose end is being carried out: its process record, taken off jobs_.
  struct Ending {
    JobId job;
    RunningJob run;
    RunningJob::Outcome outcome;
    JobUsage usage;
  };
  // A step's relay: which job and step its keeper (the pid) belongs to.
  struct RunningStep {
    JobId job;
    std::int32_t step = 0;
    std::int64_t pgid = 0;
    // Re-adopted after a restart: not our child, so its end is seen by polling /proc.
    bool adopted = false;
    std::uint64_t start_ticks = 0;
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
  // The held launch goes once NodeJobs no longer holds the job back.
  void tidy(JobId job);
  void finish_launch(JobId job, Result<LaunchedProcess> launched, Time now);
  void readopt(Time now);
  // job_steps.cpp: the steps' relays that outlived the agent, with their jobs.
  void readopt_steps(const CheckpointScan& scan);
  void send(const wire::Message& m);
  void send_register(Time now);
  // Returns the update's sequence number, which the coordinator's Ack names.
  std::uint64_t report(JobId job, std::optional<std::int32_t> attempt, JobState state,
                       std::optional<std::int32_t> exit_code, std::optional<std::int32_t> signal, Time now,
                       std::string reason = {}, const JobUsage* usage = nullptr);
  // The final report of a job whose end is carried out: how it ended and what it used.
  std::uint64_t report_end(Ending& ending, std::optional<std::int32_t> attempt, Time now);
  // A job's cgroup limits: its PUs, its memory limit, and the node's GPUs it does not hold.
  CgroupLimits cgroup_limits(JobId job, const std::vector<std::int32_t>& pus,
                             const std::vector<std::int32_t>& gpus,
                             std::optional<std::int64_t> memory_bytes) const;
  // What the launcher needs of the job's cores and GPUs here: the GPUs' visible ids and,
  // when binding, the cores' PUs.
  void place_on_node(LaunchRequest& req, const std::vector<std::int32_t>& cores,
                     const std::vector<std::int32_t>& gpus) const;
  // What its cgroup counted; its cgroup is removed. OOM kills turn a failure into oom.
  JobUsage collect_usage(JobId job, JobState& state, std::string& reason,
                         std::optional<std::int64_t> memory_limit);
  // Renews the keepers' view of the lease (coordinator_lease_file.h).
  void publish_lease();
  // job_launch.cpp: a launch asked by the coordinator (retry: a held one asked again), and
  // its start: cores, cgroup, then the workers.
  void on_launch(const wire::LaunchJob& l, Time now, bool retry = false);
  void start_launch(JobId job, Time now);
  void retry_launch(JobId job, Time now);
  // job_steps.cpp: a step's relay launched in its job's cgroup, on its cores; and what
  // runs on a node of a multi-node job that is not its first (fairway-step --hold).
  void on_launch_step(const wire::LaunchStep& s, Time now);
  // The held step `step` of `job`, taken off its launch (kStartStep, kRefuseStep).
  std::optional<wire::LaunchStep> take_held_step(JobId job, std::int32_t step);
  void start_step(const wire::LaunchStep& s, const RunningJob& job);
  void finish_step_launch(JobId job, std::int32_t step, Result<LaunchedProcess> launched);
  bool step_ended(std::int64_t pid, Time now);
  // Re-adopted relays are not our children: their ends are found by polling.
  void poll_adopted_steps(Time now);
  void stop_steps(RunningJob& job);
  // The script ended: its steps, if any run, get the grace before the job is reported.
  void wind_down(JobId job, RunningJob::Outcome outcome, SupervisorPhase phase, Time stop_kill_at, Time now);
  // A completing job is done: no step's relay and nothing in its script's group is left.
  bool steps_done(const RunningJob& j);
  // SIGKILL for a completing job's processes once its grace is over.
  void press(JobId job, RunningJob& j, Time now);
  // The job's processes are done (`event`: its script exited, or its steps are gone): what
  // is left is killed, and NodeJobs' end (report, or for a holder forget) carried out.
  void finalize(JobId job, const NodeEvent& event, Time now);
  wire::JobProgram holder_program() const;
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
  // Each job's place in its lifecycle here (waiting for cores, launching, running,
  // completing, awaiting the Ack), its run, and what is held back for it.
  NodeJobs node_jobs_;
  // The launches NodeJobs holds back or has handed to the workers, with their early steps.
  std::unordered_map<std::uint64_t, HeldLaunch> held_;
  // Reaped children no job claimed yet: a keeper can end before its launch is handed back.
  std::unordered_map<std::int64_t, UnclaimedExit> unclaimed_exits_;
  SlotLedger ledger_;
  StatusOutbox outbox_;
  std::unordered_map<std::uint64_t, RunningJob> jobs_;
  std::unordered_map<std::int64_t, JobId> by_pid_;
  std::unordered_map<std::int64_t, RunningStep> steps_;  // by the relay keeper's pid
  std::vector<std::string> outgoing_;
  bool registered_ = false;
  std::optional<Time> last_register_;
  Time last_heartbeat_;
  std::uint64_t heartbeat_seq_ = 0;
  Time mono_;                     // set_monotonic()
  std::optional<Time> heard_at_;  // monotonic; unset until the first turn
  bool fenced_ = false;           // jobs stopped for a silent coordinator, not heard since
};

}  // namespace fairway::agent
