// A step's share on this node runs as one relay (fairway-step) under a keeper, as the
// job's user, in the job's cgroup and on its cores; the relay forks the tasks and talks to
// the client itself. The agent only starts it and signals it with its job: a step's output
// never passes through the agent's loop.
#include "agent/daemon/node_steps.h"

#include <algorithm>
#include <csignal>
#include <string>

#include "agent/daemon/launch_placement.h"
#include "agent/step/relay_plan.h"
#include "shared/base/log.h"
#include "shared/config/hostlist.h"

namespace fairway::agent {
namespace {

std::string comma_joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

std::string step_id(JobId job, std::int32_t step) {
  return std::to_string(job.value()) + "." + std::to_string(step);
}

}  // namespace

NodeSteps::NodeSteps(const DiscoveredNode& node, const AgentOptions& options, AgentHost& host)
    : node_(node), options_(options), host_(host) {}

void NodeSteps::hold(const wire::LaunchStep& s) {
  held_[s.job.value()].push_back(s);
}

std::optional<wire::LaunchStep> NodeSteps::take_held(JobId job, std::int32_t step) {
  auto h = held_.find(job.value());
  if (h == held_.end()) return std::nullopt;
  auto& steps = h->second;
  auto it =
      std::find_if(steps.begin(), steps.end(), [&](const wire::LaunchStep& s) { return s.step == step; });
  if (it == steps.end()) return std::nullopt;
  wire::LaunchStep s = std::move(*it);
  steps.erase(it);
  if (steps.empty()) held_.erase(h);
  return s;
}

void NodeSteps::drop_held(JobId job) {
  held_.erase(job.value());
}

void NodeSteps::start(const wire::LaunchStep& s, const std::vector<std::int32_t>& cores,
                      const std::vector<std::int32_t>& gpus, std::optional<std::int64_t> memory_limit) {
  LaunchRequest req;
  req.job = s.job;
  req.step = s.step;
  req.user = s.user;
  req.uid = s.uid;
  req.gid = s.gid;
  req.node_name = node_.topology.name;
  req.nodelist = compress_hostlist(s.nodes);
  req.nnodes = static_cast<std::int32_t>(s.nodes.size());
  req.cores = cores;
  req.gpus = gpus;
  place_on_node(req, cores, gpus, node_, options_.apply_binding);
  req.program.argv = {options_.step_relay_path, "--"};
  req.program.argv.insert(req.program.argv.end(), s.argv.begin(), s.argv.end());
  // The relay enters the step's directory itself and tells the client when it cannot.
  req.program.working_dir = "/";
  req.program.stdout_path = "/dev/null";
  req.program.stderr_path = "/dev/null";
  req.program.env = s.env;
  std::string tasks;
  for (std::int32_t t : s.tasks_per_node) tasks += (tasks.empty() ? "" : ",") + std::to_string(t);
  req.program.env.insert(req.program.env.end(),
                         {{kStepEnvAddress, s.io_address},
                          {kStepEnvKey, s.io_key},
                          {kStepEnvJob, std::to_string(s.job.value())},
                          {kStepEnvId, std::to_string(s.step)},
                          {kStepEnvNodeIndex, std::to_string(s.node_index)},
                          {kStepEnvNodes, comma_joined(s.nodes)},
                          {kStepEnvTasks, tasks},
                          {kStepEnvDir, s.working_dir.empty() ? "/" : s.working_dir},
                          {kStepEnvCpusPerTask, std::to_string(s.cpus_per_task)},
                          {kStepEnvGrace, std::to_string(options_.kill_grace.count())}});
  if (s.pty) req.program.env.emplace_back(kStepEnvPty, "1");
  if (!s.cpu_bind.empty()) req.program.env.emplace_back(kStepEnvCpuBind, s.cpu_bind);
  if (!s.distribution.empty()) req.program.env.emplace_back(kStepEnvDistribution, s.distribution);
  if (!s.mpi.empty()) req.program.env.emplace_back(kStepEnvMpi, s.mpi);
  // The job's cores here with their PUs, for the relay to bind each task to its own.
  if (options_.apply_binding) {
    std::string core_pus;
    for (std::int32_t c : cores) {
      // An --exclusive step binds its tasks to the cores it holds (those of the job's).
      if (!s.cores.empty() && std::find(s.cores.begin(), s.cores.end(), c) == s.cores.end()) continue;
      std::string pus;
      for (int pu : node_.core_pus[static_cast<std::size_t>(c)])
        pus += (pus.empty() ? "" : ",") + std::to_string(pu);
      core_pus += (core_pus.empty() ? "" : ";") + pus;
    }
    req.program.env.emplace_back(kStepEnvCorePus, core_pus);
  }
  // The job's own cgroup, found again: the step is held to what the job was given.
  auto attach = host_.prepare_cgroup(
      cgroup_limits(s.job, req.bind_pus, gpus, memory_limit, options_.max_pids_per_job, node_, host_));
  if (!attach) {
    log_event(
        LogLevel::kError, "step_launch_failed",
        {{"step", step_id(s.job, s.step)}, {"node", node_.topology.name}, {"error", attach.error().message}});
    return;
  }
  log_event(LogLevel::kInfo, "step_launching",
            {{"step", step_id(s.job, s.step)},
             {"node", node_.topology.name},
             {"tasks", std::to_string(s.tasks_per_node[static_cast<std::size_t>(s.node_index)])}});
  host_.launch(std::move(req), std::move(*attach));
}

void NodeSteps::launched(JobId job, std::int32_t step, Result<LaunchedProcess> launched, bool reaped,
                         bool job_runs) {
  const std::string id = step_id(job, step);
  const std::string& node = node_.topology.name;
  if (!launched) {
    log_event(LogLevel::kError, "step_launch_failed",
              {{"step", id}, {"node", node}, {"error", launched.error().message}});
    return;
  }
  if (reaped) {
    // It ran and ended (and was reaped) before its launch was handed back: a quick step
    // whose srun already had all it needed. Its job must not wait for it.
    host_.forget_step(job, step);
    (void)host_.signal_group(launched->pgid, SIGKILL);
    log_event(LogLevel::kInfo, "step_ended", {{"step", id}, {"node", node}});
    return;
  }
  relays_[launched->pid] = Relay{job, step, launched->pgid};
  if (!job_runs) {
    // Its job ended while the relay was being started: it ends too.
    (void)host_.signal_group(launched->pgid, SIGKILL);
    return;
  }
  groups_[job.value()].push_back(launched->pgid);
  // A restarted agent must still stop the step with its job and wait for it.
  const StepCheckpoint c{job, step, launched->pid, launched->pgid, host_.start_ticks(launched->pid)};
  if (auto st = host_.save_step_checkpoint(c); !st) {
    log_event(LogLevel::kWarning, "checkpoint_failed", {{"step", id}, {"error", st.error().message}});
  }
  log_event(LogLevel::kInfo, "step_started",
            {{"step", id}, {"node", node}, {"pid", std::to_string(launched->pid)}});
}

std::optional<JobId> NodeSteps::ended(std::int64_t pid) {
  auto r = relays_.find(pid);
  if (r == relays_.end()) return std::nullopt;
  const Relay relay = r->second;
  relays_.erase(r);
  host_.forget_step(relay.job, relay.step);
  (void)host_.signal_group(relay.pgid, SIGKILL);
  log_event(LogLevel::kInfo, "step_ended",
            {{"step", step_id(relay.job, relay.step)}, {"node", node_.topology.name}});
  if (auto g = groups_.find(relay.job.value()); g != groups_.end()) {
    std::erase(g->second, relay.pgid);
    if (g->second.empty()) groups_.erase(g);
  }
  return relay.job;
}

std::vector<std::int64_t> NodeSteps::gone_adopted() {
  std::vector<std::int64_t> gone;
  for (const auto& [pid, r] : relays_) {
    if (r.adopted && !host_.is_alive(pid, r.start_ticks)) gone.push_back(pid);
  }
  return gone;
}

void NodeSteps::readopt(const CheckpointScan& scan, const std::function<bool(JobId)>& job_runs) {
  const std::string& node = node_.topology.name;
  for (const StepCheckpoint& c : scan.live_steps) {
    const std::string id = step_id(c.job, c.step);
    if (!job_runs(c.job)) {
      // Its job is gone (it ended while no agent watched): nothing may run on in its place.
      log_event(LogLevel::kWarning, "step_orphaned",
                {{"step", id}, {"node", node}, {"pid", std::to_string(c.pid)}});
      (void)host_.signal_group(c.pgid, SIGKILL);
      host_.forget_step(c.job, c.step);
      continue;
    }
    relays_[c.pid] = Relay{c.job, c.step, c.pgid, true, c.process_start_ticks};
    groups_[c.job.value()].push_back(c.pgid);
    log_event(LogLevel::kInfo, "step_readopted",
              {{"step", id}, {"node", node}, {"pid", std::to_string(c.pid)}});
  }
  // It ended while no agent watched: what srun reported of it stands; its file goes.
  for (const StepCheckpoint& c : scan.lost_steps) host_.forget_step(c.job, c.step);
}

void NodeSteps::signal(JobId job, int signal) {
  auto g = groups_.find(job.value());
  if (g == groups_.end()) return;
  for (std::int64_t pgid : g->second) (void)host_.signal_group(pgid, signal);
}

void NodeSteps::stop(JobId job) {
  signal(job, SIGKILL);
  groups_.erase(job.value());
}

std::size_t NodeSteps::running(JobId job) const {
  auto g = groups_.find(job.value());
  return g == groups_.end() ? 0 : g->second.size();
}

bool NodeSteps::done(JobId job, std::int64_t job_pgid) {
  return running(job) == 0 && !host_.group_alive(job_pgid);
}

}  // namespace fairway::agent
