#include "coordinator/daemon/client_steps.h"

#include <filesystem>

#include "coordinator/daemon/client_access.h"
#include "coordinator/daemon/coordinator_service.h"
#include "shared/base/log.h"
#include "shared/base/try.h"
#include "shared/model/step_layout.h"

namespace fairway::daemon {
namespace {

// The key proves a relay to its client; a short one could be guessed.
constexpr std::size_t kMinStepKeyBytes = 16;

Result<wire::StepReply> start_step(ServiceContext& ctx, const wire::StepRequest& m, const Caller& caller,
                                   Time now) {
  FAIRWAY_TRY_ASSIGN(found, live_job_for(ctx, m.job, caller));
  const JobRecord& rec = *found;
  if (!may_run_steps(caller, rec.spec)) {
    return make_error(ErrorCode::kPermissionDenied, "job " + id_str(m.job) + " belongs to '" + rec.spec.user +
                                                        "': only its owner runs steps in it");
  }
  JobTracking& t = ctx.tracking[m.job.value()];
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
    room.push_back(
        {ctx.scheduler.cluster().node(na.node).topology.name, static_cast<std::int32_t>(na.cores.size())});
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
    auto taken = t.steps.take_cores(needs);
    if (!taken) return make_error(ErrorCode::kUnavailable, "Requested nodes are busy");
    held = std::move(*taken);
  }
  wire::StepReply r;
  r.job = m.job;
  r.step = t.steps.next_number();
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
    ctx.service.reply(Channel::kAgents, r.nodes[static_cast<std::size_t>(i)], l);
  }
  StoredStep row;
  row.job = m.job;
  // Slurm names a step after its command's base name, as srun names its allocation.
  row.name = std::filesystem::path(m.argv.front()).filename().string();
  if (row.name.empty()) row.name = m.argv.front();
  for (std::int32_t n : r.tasks_per_node) row.ntasks += n;
  row.nodes = nodes;
  row.start_time = now;
  ctx.service.persist_step(t.steps.open(std::move(row)));
  log_event(LogLevel::kInfo, "step_requested",
            {{"job", id_str(m.job)},
             {"step", std::to_string(r.step)},
             {"by", caller.user},
             {"nodes", std::to_string(nodes)},
             {"command", m.argv.front()}});
  return r;
}

Status end_step(ServiceContext& ctx, const wire::StepEnded& m, const Caller& caller, Time now) {
  const std::string id = id_str(m.job) + "." + std::to_string(m.step);
  const JobRecord* rec = ctx.scheduler.job(m.job);
  auto t = ctx.tracking.find(m.job.value());
  if (rec == nullptr || t == ctx.tracking.end())
    return make_error(ErrorCode::kNotFound, "step " + id + " is not running");
  // The step's end is its srun's word, so only who may run steps in the job says it.
  if (!may_run_steps(caller, rec->spec)) {
    return make_error(ErrorCode::kPermissionDenied, "job " + id_str(m.job) + " belongs to '" +
                                                        rec->spec.user + "': only its owner ends its steps");
  }
  auto ended = t->second.steps.end(m, now);
  if (!ended) return make_error(ErrorCode::kNotFound, "step " + id + " is not running");
  const StoredStep& step = *ended;
  ctx.service.persist_step(step);
  log_event(LogLevel::kInfo, "step_ended",
            {{"step", id},
             {"state", std::string(to_string(step.state))},
             {"exit_code", std::to_string(m.exit_code)},
             {"signal", std::to_string(m.signal)}});
  return ok_status();
}

}  // namespace

wire::Message step_request(ServiceContext& ctx, const wire::StepRequest& m, const Caller& caller, Time now) {
  auto r = start_step(ctx, m, caller, now);
  if (!r) {
    log_event(LogLevel::kInfo, "step_refused",
              {{"job", id_str(m.job)}, {"by", caller.user}, {"error", r.error().message}});
    return error_message(r.error());
  }
  return *r;
}

wire::Message step_ended(ServiceContext& ctx, const wire::StepEnded& m, const Caller& caller, Time now) {
  if (Status s = end_step(ctx, m, caller, now); !s) {
    log_event(LogLevel::kInfo, "step_end_refused",
              {{"job", id_str(m.job)},
               {"step", std::to_string(m.step)},
               {"by", caller.user},
               {"error", s.error().message}});
    return error_message(s.error());
  }
  return wire::Ack{};
}

}  // namespace fairway::daemon
