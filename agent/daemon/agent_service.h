// The agent's behaviour without its socket: frames from the coordinator in, frames out;
// it launches, supervises (walltime, cancel: TERM then KILL) and reaps jobs, and
// re-adopts live jobs from its checkpoints after a restart.
// Not thread-safe: the agent's one event-loop thread owns it.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "agent/core/job_supervisor.h"
#include "agent/core/slot_ledger.h"
#include "agent/daemon/status_outbox.h"
#include "agent/daemon/agent_host.h"
#include "agent/os/job_cgroups.h"
#include "agent/os/topology_discovery.h"

namespace fairway::agent {

// A job id as the logs show it.
inline std::string id_str(JobId id) { return std::to_string(id.value()); }

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
  const std::string& enforcement() const { return cgroups_->description(); }

 private:
  struct RunningJob {
    JobSupervisor supervisor;
    std::vector<std::int32_t> cores, gpus;
    bool adopted = false;  // not our child: polled through /proc, exit status unknown
    std::uint64_t start_ticks = 0;
    bool fenced = false;   // stopped because the coordinator was lost: reported node_fail
    std::optional<std::int64_t> memory_limit;  // bytes, when its cgroup has one
    std::vector<std::int64_t> step_groups;     // its steps' process groups, killed with it
    bool extern_only = false;  // LaunchJob.extern_only: its end is not reported
    bool stopping = false;     // signalled by the coordinator: a new run waits for its end
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

  // A launch handed to the workers: what it was, and a signal that came meanwhile.
  struct PendingLaunch {
    wire::LaunchJob launch;
    Time requested;
    std::optional<std::pair<std::int32_t, Duration>> signal;
    std::vector<wire::LaunchStep> steps;  // came before the job ran here: started after it
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
  void finish_launch(const PendingLaunch& pending, Result<LaunchedProcess> launched, Time now);
  void launch_failed(JobId job, const std::string& why, Time now);
  void readopt(Time now);
  // job_steps.cpp: the steps' relays that outlived the agent, with their jobs.
  void readopt_steps(const CheckpointScan& scan);
  void send(const wire::Message& m);
  void send_register(Time now);
  // Returns the update's sequence number, which the coordinator's Ack names.
  std::uint64_t report(JobId job, JobState state, std::optional<std::int32_t> exit_code,
                       std::optional<std::int32_t> signal, Time now, std::string reason = {},
                       const JobUsage* usage = nullptr);
  // A job's cgroup limits: its PUs, its memory limit, and the node's GPUs it does not hold.
  CgroupLimits cgroup_limits(JobId job, const std::vector<std::int32_t>& pus, const std::vector<std::int32_t>& gpus,
                             std::optional<std::int64_t> memory_bytes) const;
  // What the launcher needs of the job's cores and GPUs here: the GPUs' visible ids and,
  // when binding, the cores' PUs.
  void place_on_node(LaunchRequest& req, const std::vector<std::int32_t>& cores, const std::vector<std::int32_t>& gpus) const;
  // What its cgroup counted; its cgroup is removed. OOM kills turn a failure into oom.
  JobUsage collect_usage(JobId job, JobState& state, std::string& reason,
                         std::optional<std::int64_t> memory_limit);
  // A job's end is reported: its checkpoint, exit record and script stay in the spool
  // until the coordinator acknowledges it, so an agent restarted meanwhile reports it again.
  void keep_until_acknowledged(JobId job, std::uint64_t seq);
  void forget_ended(JobId job);
  // Renews the keepers' view of the lease (coordinator_lease_file.h).
  void publish_lease();
  void on_launch(const wire::LaunchJob& l, Time now);
  void retry_waiting_launches(Time now);
  // job_steps.cpp: a step's relay launched in its job's cgroup, on its cores; and what
  // runs on a node of a multi-node job that is not its first (fairway-step --hold).
  void on_launch_step(const wire::LaunchStep& s);
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
  // The job's end reported (or, for a holder, just forgotten): its cores are free.
  void finalize(JobId job, Time now);
  wire::JobProgram holder_program() const;
  void on_signal(const wire::SignalJob& s, Time now);
  void on_set_time_limit(const wire::SetTimeLimit& m);
  void on_send_signal(const wire::SendSignal& m);
  // The supervisor's signals; one to the job's group reaches its steps' groups too.
  void apply(const std::vector<SupervisorAction>& actions);
  void ended(JobId job, ProcessExit exit, Time now);
  void fence(Time now);

  DiscoveredNode node_;
  AgentOptions options_;
  std::unique_ptr<JobCgroups> cgroups_;
  std::vector<std::vector<DeviceNumber>> gpu_devices_;  // per node-local GPU: its /dev nodes
  std::unique_ptr<AgentHost> host_;
  std::unordered_map<std::uint64_t, PendingLaunch> launching_;
  // A new run of a job whose last run here is being stopped: launched once that ends.
  std::unordered_map<std::uint64_t, wire::LaunchJob> deferred_launches_;
  // Launches whose cores a stopping job still holds: tried again as each job here ends.
  std::map<std::uint64_t, wire::LaunchJob> waiting_for_cores_;
  // Steps of a job waiting for its cores here (srun starts one the moment its job starts
  // anywhere): started once the job runs here, dropped with it.
  std::unordered_map<std::uint64_t, std::vector<wire::LaunchStep>> steps_before_start_;
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
  Time mono_;                    // set_monotonic()
  std::optional<Time> heard_at_;  // monotonic; unset until the first turn
  bool fenced_ = false;           // jobs stopped for a silent coordinator, not heard since
  std::unordered_map<std::uint64_t, JobId> ended_awaiting_ack_;  // final report's seq -> job
  // The run (LaunchJob.restarts) each job here is, named in its reports so that the
  // coordinator never takes an earlier run's end for a later one's. Dropped with its final
  // report; absent for a job re-adopted from a checkpoint older than the field.
  std::unordered_map<std::uint64_t, std::int32_t> attempts_;
};

}  // namespace fairway::agent
