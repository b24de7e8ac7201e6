// The job steps (fairway run) of this node's jobs: each step's relay (fairway-step) under
// its keeper, in its job's cgroup and on its cores, signalled and stopped with its job.
// Steps that came before their job ran here are held until NodeJobs starts or refuses them;
// relays that outlived a restarted agent are found again from their checkpoints.
// Not thread-safe: the agent's one loop thread owns it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "agent/daemon/agent_host.h"
#include "agent/daemon/agent_options.h"
#include "agent/os/topology_discovery.h"
#include "shared/wire/messages.h"

namespace fairway::agent {

class NodeSteps {
 public:
  // `node`, `options` and `host` outlive it (they are its AgentService's).
  NodeSteps(const DiscoveredNode& node, const AgentOptions& options, AgentHost& host);

  // A step the coordinator asked for, held until NodeJobs says what becomes of it.
  void hold(const wire::LaunchStep& s);
  // The held step `step` of `job`, taken off the held ones (to start it, or refuse it).
  std::optional<wire::LaunchStep> take_held(JobId job, std::int32_t step);
  // The job does not wait to run here any more: the steps held for it go.
  void drop_held(JobId job);

  // Starts the step's relay in its job's cgroup, on the job's `cores` and `gpus` here; the
  // launch is handed back to launched().
  void start(const wire::LaunchStep& s, const std::vector<std::int32_t>& cores,
             const std::vector<std::int32_t>& gpus, std::optional<std::int64_t> memory_limit);
  // The workers handed a relay back. `reaped`: its keeper already ended (the step is
  // over); `job_runs`: its job still runs here (else the relay is killed at once).
  void launched(JobId job, std::int32_t step, Result<LaunchedProcess> launched, bool reaped, bool job_runs);
  // A reaped child: when it is a step's relay, the step is over (what is left of it killed,
  // its checkpoint gone); returns its job.
  std::optional<JobId> ended(std::int64_t pid);
  // The re-adopted relays that are gone (they are not our children: polled), by pid.
  std::vector<std::int64_t> gone_adopted();
  // At the agent's start: the relays that outlived it, kept with their jobs (`job_runs`);
  // one whose job is gone is killed; the checkpoints of those that ended go.
  void readopt(const CheckpointScan& scan, const std::function<bool(JobId)>& job_runs);

  // `signal` to the process groups of the job's steps.
  void signal(JobId job, int signal);
  // SIGKILL to the job's steps, which no longer hold it (their relays are reaped later).
  void stop(JobId job);
  // How many of the job's steps run here.
  std::size_t running(JobId job) const;
  // No step of the job runs, and nothing is left in its script's group (`job_pgid`):
  // srun itself may still be passing on another node's output.
  bool done(JobId job, std::int64_t job_pgid);

 private:
  // A step's relay: which job and step its keeper (the pid) belongs to.
  struct Relay {
    JobId job;
    std::int32_t step = 0;
    std::int64_t pgid = 0;
    // Re-adopted after a restart: not our child, so its end is seen by polling /proc.
    bool adopted = false;
    std::uint64_t start_ticks = 0;
  };

  const DiscoveredNode& node_;
  const AgentOptions& options_;
  AgentHost& host_;
  std::unordered_map<std::uint64_t, std::vector<wire::LaunchStep>> held_;  // by job
  std::unordered_map<std::int64_t, Relay> relays_;                         // by the keeper's pid
  // The process groups of each job's running steps, killed with it.
  std::unordered_map<std::uint64_t, std::vector<std::int64_t>> groups_;
};

}  // namespace fairway::agent
