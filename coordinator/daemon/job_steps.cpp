// Multi-node jobs and their steps. Every node of a job but its first gets an extern-only
// launch, so that its agent holds the job's cores, GPUs and cgroup there until the job
// stops; `fairway run` (srun) asks for a step, which becomes one LaunchStep per node. A
// step's output goes from each node's relay straight to the client, never through here.
#include <csignal>
#include <filesystem>

#include "coordinator/daemon/coordinator_service.h"
#include "shared/base/log.h"
#include "shared/base/try.h"
#include "shared/model/step_layout.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

// The key proves a relay to its client; a short one could be guessed.
constexpr std::size_t kMinStepKeyBytes = 16;

}  // namespace

// A step runs as the job's user: only that user (or root) may start one, or say how one
// ended. An admin who is not root may cancel any job, but must not run commands as its
// owner.
bool CoordinatorService::may_run_steps(const Caller& caller, const JobSpec& spec) {
  return owns(caller, spec) || caller.uid == 0;
}

void CoordinatorService::launch_members(const JobRecord& rec, const wire::LaunchJob& head) {
  constexpr std::int64_t kMiB = 1 << 20;
  for (std::size_t i = 1; i < rec.allocation.nodes.size(); ++i) {
    const NodeAllocation& na = rec.allocation.nodes[i];
    const auto& node = scheduler_->cluster().node(na.node);
    wire::LaunchJob m = head;
    m.extern_only = true;
    m.program = wire::JobProgram{};  // the agent runs its own holder, nothing of the job's
    // --signal's warning is for the job's script: it would end the holder (and the steps
    // it holds the node for) before the job's time is up.
    m.warn_signal = 0;
    m.warn_before_s = 0;
    m.warn_batch_only = false;
    m.cores = na.cores;
    m.gpus = na.gpus;
    m.memory_limit_bytes = na.memory_mb > 0 ? std::optional(na.memory_mb * kMiB) : std::nullopt;
    m.fence_gpu_sockets = node.socket_exclusive;
    turn_launches_.push_back({Channel::kAgents, node.topology.name, wire::encode(m), {}});
  }
}

void CoordinatorService::release_members(JobTracking& t, JobId id, const std::vector<std::string>& members,
                                         Time now) {
  // Its steps' tasks there may still be in the grace of the stop that ended the job (they
  // heard it with the first node): a stop can only shorten that, and what merely holds
  // the job there ends at once. Their cores may go to the next job meanwhile: its launch
  // waits on the agent until they are free.
  for (const std::string& node : members) {
    reply(Channel::kAgents, node, wire::SignalJob{id, SIGTERM, config_.agent.kill_grace});
  }
  // Steps whose srun has not said how they ended were killed with the job (or their srun
  // died): Slurm records those CANCELLED by SIGKILL too.
  for (auto& [number, step] : t.open_steps) {
    step.state = JobState::kCancelled;
    step.end_time = std::max(now, step.start_time);
    step.exit_code = 0;
    step.signal = SIGKILL;
    persist_step(step);
  }
  t.open_steps.clear();
  t.step_cores = StepCores{};
}

void CoordinatorService::persist_step(const StoredStep& step) {
  // Steps are accounting: with the store read-only the job and its step go on unrecorded.
  if (!read_only_.empty()) return;
  if (!ensure_txn()) return;
  (void)write(store_->put_step(step), "put_step", step.job);
}

Result<wire::StepReply> CoordinatorService::start_step(const wire::StepRequest& m, const Caller& caller, Time now) {
  FAIRWAY_TRY_ASSIGN(found, live_job_for(m.job, caller));
  const JobRecord& rec = *found;
  if (!may_run_steps(caller, rec.spec)) {
    return make_error(ErrorCode::kPermissionDenied,
                      "job " + id_str(m.job) + " belongs to '" + rec.spec.user + "': only its owner runs steps in it");
  }
  JobTracking& t = tracking_[m.job.value()];
  if (rec.state != JobState::kRunning || rec.allocation.empty()) {
    return make_error(ErrorCode::kFailedPrecondition, "job " + id_str(m.job) + " is " +
                                                          std::string(to_string(rec.state)) +
                                                          ": steps run only in a running job");
  }
  if (m.argv.empty() || m.argv.front().empty()) return invalid_argument("StepRequest.argv: names no command");
  if (!m.io_address.starts_with("tcp://")) {
    return invalid_argument("StepRequest.io_address: expected tcp://HOST:PORT, got '" + m.io_address + "'");
  }
  if (m.io_key.size() < kMinStepKeyBytes) {
    return invalid_argument("StepRequest.io_key: at least " + std::to_string(kMinStepKeyBytes) + " bytes");
  }
  const auto& alloc = rec.allocation.nodes;
  // The step takes a subset of the job's nodes and cores, as srun's options ask (mpirun
  // starts one daemon on each other node with -N1 -w NODE).
  std::vector<JobNodeRoom> room;
  for (const NodeAllocation& na : alloc) {
    room.push_back({scheduler_->cluster().node(na.node).topology.name, static_cast<std::int32_t>(na.cores.size())});
  }
  const StepAsk ask{m.nodes, m.ntasks, m.ntasks_per_node, m.cpus_per_task, m.nodelist, m.exclude};
  auto layout = step_layout(ask, room, rec.spec.tasks);
  if (!layout) return invalid_argument("job " + id_str(m.job) + ": " + layout.error().message);
  const auto nodes = static_cast<std::int32_t>(layout->nodes.size());
  const std::int32_t cpus_per_task = layout->cpus_per_task;
  // srun --exclusive/--exact: cores of its own on each node, or it waits (srun retries on
  // this error, in Slurm's words) while other such steps hold them.
  std::vector<std::vector<std::int32_t>> held(layout->nodes.size());
  if (m.exclusive) {
    std::vector<StepCores::Need> needs;
    for (std::size_t k = 0; k < layout->nodes.size(); ++k) {
      const NodeAllocation& na = alloc[layout->nodes[k]];
      needs.push_back({room[layout->nodes[k]].name, na.cores, layout->tasks_per_node[k] * cpus_per_task});
    }
    auto taken = t.step_cores.take(t.next_step, needs);
    if (!taken) return make_error(ErrorCode::kUnavailable, "Requested nodes are busy");
    held = std::move(*taken);
  }
  wire::StepReply r;
  r.job = m.job;
  r.step = t.next_step++;
  r.tasks_per_node = layout->tasks_per_node;
  for (const std::size_t i : layout->nodes) r.nodes.push_back(room[i].name);
  wire::LaunchStep l;
  l.job = m.job;
  l.step = r.step;
  l.user = rec.spec.user;
  l.uid = rec.spec.uid;
  l.gid = rec.spec.gid;
  l.argv = m.argv;
  l.env = m.env;
  l.working_dir = m.working_dir;
  l.nodes = r.nodes;
  l.tasks_per_node = r.tasks_per_node;
  l.cpus_per_task = cpus_per_task;
  l.io_address = m.io_address;
  l.io_key = m.io_key;
  l.pty = m.pty;
  l.cpu_bind = m.cpu_bind;
  l.distribution = m.distribution;
  l.mpi = m.mpi;
  for (std::int32_t i = 0; i < nodes; ++i) {
    l.node_index = i;
    l.cores = held[static_cast<std::size_t>(i)];
    reply(Channel::kAgents, r.nodes[static_cast<std::size_t>(i)], l);
  }
  StoredStep row;
  row.job = m.job;
  row.step = r.step;
  // Slurm names a step after its command's base name, as srun names its allocation.
  row.name = std::filesystem::path(m.argv.front()).filename().string();
  if (row.name.empty()) row.name = m.argv.front();
  for (std::int32_t n : r.tasks_per_node) row.ntasks += n;
  row.nodes = nodes;
  row.start_time = now;
  persist_step(row);
  t.open_steps[r.step] = std::move(row);
  log_event(LogLevel::kInfo, "step_requested",
            {{"job", id_str(m.job)}, {"step", std::to_string(r.step)}, {"by", caller.user},
             {"nodes", std::to_string(nodes)}, {"command", m.argv.front()}});
  return r;
}

void CoordinatorService::on_step_request(const std::string& peer, const wire::StepRequest& m, const Caller& caller,
                                         Time now) {
  auto r = start_step(m, caller, now);
  if (!r) {
    log_event(LogLevel::kInfo, "step_refused", {{"job", id_str(m.job)}, {"by", caller.user}, {"error", r.error().message}});
    return error_reply(Channel::kClients, peer, r.error().code, r.error().message);
  }
  reply(Channel::kClients, peer, *r);
}

Status CoordinatorService::end_step(const wire::StepEnded& m, const Caller& caller, Time now) {
  const std::string id = id_str(m.job) + "." + std::to_string(m.step);
  const JobRecord* rec = scheduler_->job(m.job);
  auto t = tracking_.find(m.job.value());
  if (rec == nullptr || t == tracking_.end()) return make_error(ErrorCode::kNotFound, "step " + id + " is not running");
  // The step's end is its srun's word, so only who may run steps in the job says it.
  if (!may_run_steps(caller, rec->spec)) {
    return make_error(ErrorCode::kPermissionDenied, "job " + id_str(m.job) + " belongs to '" + rec->spec.user +
                                                        "': only its owner ends its steps");
  }
  auto open = t->second.open_steps.find(m.step);
  if (open == t->second.open_steps.end()) return make_error(ErrorCode::kNotFound, "step " + id + " is not running");
  StoredStep step = std::move(open->second);
  t->second.open_steps.erase(open);
  t->second.step_cores.release(m.step);
  // Slurm's states for a step: killed by a signal CANCELLED, a non-zero exit FAILED.
  step.state = m.signal != 0 ? JobState::kCancelled : m.exit_code != 0 ? JobState::kFailed : JobState::kCompleted;
  step.end_time = std::max(now, step.start_time);
  step.exit_code = m.exit_code;
  step.signal = m.signal;
  step.max_rss_kb = m.max_rss_kb;
  step.cpu_us = m.cpu_us;
  persist_step(step);
  log_event(LogLevel::kInfo, "step_ended",
            {{"step", id}, {"state", std::string(to_string(step.state))}, {"exit_code", std::to_string(m.exit_code)},
             {"signal", std::to_string(m.signal)}});
  return ok_status();
}

void CoordinatorService::on_step_ended(const std::string& peer, const wire::StepEnded& m, const Caller& caller,
                                       Time now) {
  if (Status s = end_step(m, caller, now); !s) {
    log_event(LogLevel::kInfo, "step_end_refused",
              {{"job", id_str(m.job)}, {"step", std::to_string(m.step)}, {"by", caller.user}, {"error", s.error().message}});
    return error_reply(Channel::kClients, peer, s.error().code, s.error().message);
  }
  reply(Channel::kClients, peer, wire::Ack{});
}

Status CoordinatorService::attach_steps(std::vector<wire::JobView>& jobs) const {
  if (jobs.empty()) return ok_status();
  std::unordered_map<std::uint64_t, wire::JobView*> by_id;
  for (wire::JobView& j : jobs) by_id[j.id.value()] = &j;
  const auto add = [&](const std::vector<StoredStep>& steps) {
    for (const StoredStep& s : steps) {
      auto j = by_id.find(s.job.value());
      if (j == by_id.end()) continue;
      j->second->steps.push_back(
          wire::StepView{s.step, s.name, s.state, s.start_time, s.end_time, s.exit_code, s.signal, s.ntasks, s.nodes,
                         s.max_rss_kb, s.cpu_us});
    }
  };
  const auto [lo, hi] = std::minmax_element(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  // One read for a page of neighbouring ids; a sparse page (one user's jobs over years)
  // reads job by job rather than every step in between.
  if (hi->id.value() - lo->id.value() <= 4 * jobs.size()) {
    FAIRWAY_TRY_ASSIGN(steps, store_->load_steps(lo->id, hi->id));
    add(steps);
    return ok_status();
  }
  for (const auto& [id, view] : by_id) {
    FAIRWAY_TRY_ASSIGN(steps, store_->load_steps(JobId(id), JobId(id)));
    add(steps);
  }
  return ok_status();
}

Status CoordinatorService::restore_steps() {
  FAIRWAY_TRY_ASSIGN(open, store_->load_open_steps());
  for (StoredStep& s : open) {
    auto t = tracking_.find(s.job.value());
    if (t != tracking_.end()) t->second.open_steps[s.step] = std::move(s);
  }
  // Step numbers are never reused within a job, across restarts and requeues.
  FAIRWAY_TRY_ASSIGN(next, store_->load_next_step_numbers());
  for (const auto& [job, number] : next) {
    if (auto t = tracking_.find(job.value()); t != tracking_.end()) t->second.next_step = number;
  }
  return ok_status();
}

}  // namespace fairway::daemon
