// Coordinator start-up: the queue, running jobs and finished jobs come back from the
// store, so a restarted coordinator lists every job it ever accepted.
#include "coordinator/daemon/recovered_state.h"

#include <algorithm>
#include <charconv>

#include "coordinator/core/job_lifecycle.h"
#include "coordinator/daemon/job_translation.h"
#include "coordinator/daemon/job_views.h"
#include "coordinator/daemon/known_nodes.h"
#include "coordinator/daemon/stored_request.h"
#include "shared/base/log.h"
#include "shared/base/try.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

// Open steps back with their jobs, and each job's next step number.
Status restore_steps(JobStore& store, std::unordered_map<std::uint64_t, JobTracking>& tracking) {
  FAIRWAY_TRY_ASSIGN(open, store.load_open_steps());
  for (StoredStep& s : open) {
    auto t = tracking.find(s.job.value());
    if (t != tracking.end()) t->second.steps.restore_open(std::move(s));
  }
  // Step numbers are never reused within a job, across restarts and requeues.
  FAIRWAY_TRY_ASSIGN(next, store.load_next_step_numbers());
  for (const auto& [job, number] : next) {
    if (auto t = tracking.find(job.value()); t != tracking.end()) t->second.steps.restore_next(number);
  }
  return ok_status();
}

}  // namespace

Result<RecoveredState> recover_from(JobStore& store, const Config& config, Scheduler& scheduler,
                                    const ReasonSetter& system_user, Time now, Time mono) {
  RecoveredState out(config);
  out.nodes.set_system_user(system_user);
  // Fair-share must survive the restart: every run in the store, finished or still
  // running, is charged again, in time order, once all are known (end_restore).
  scheduler.begin_restore();
  // Project reservations cancelled before the restart stay cancelled (and stop charging
  // where they did); known before any job comes back into one.
  FAIRWAY_TRY_ASSIGN(cancelled, store.load_meta_prefix(std::string(kReservationCancelledPrefix)));
  for (const auto& [key, value] : cancelled) {
    std::int64_t at = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), at);
    if (ec != std::errc() || end != value.data() + value.size()) {
      return make_error(ErrorCode::kIo, "the store's record of " + key + " is unreadable: '" + value + "'");
    }
    scheduler.restore_reservation_cancelled(key.substr(kReservationCancelledPrefix.size()),
                                            Time::from_seconds(at));
  }
  // A finished run whose nodes are not known yet (remembered ones, added below): charged
  // once they are, with what it needs of its row.
  struct FinishedRun {
    StoredJob row;  // without its request
    std::string account, user, reservation;
    ResourceRequest resources;  // with its partition's default memory
  };
  std::vector<FinishedRun> finished_runs;
  const auto charge = [&](const StoredUsageRun& run) {
    scheduler.restore_finished_usage(run.account, run.user, run.cores, run.gpu_types, run.memory_mb,
                                     run.start, run.end, run.reservation);
  };
  // One row at a time: a store of millions of finished jobs is never in memory at once, and
  // only the newest kFinishedViewsKept get a view (older ones: their outcome and usage).
  FAIRWAY_TRY_ASSIGN(finished_rows, store.count_finished_jobs());
  std::int64_t finished_seen = 0;
  const auto keeps_view = [&] {
    return finished_rows - ++finished_seen < static_cast<std::int64_t>(kFinishedViewsKept);
  };
  FAIRWAY_TRY(store.scan_jobs([&](StoredJob&& s) -> Status {
    auto decoded = decode_stored_request(s.request);
    if (!decoded) {
      // Skipping it would drop an accepted job from the queue while its row says it waits
      // (a store written by a newer Fairway, or damaged): refuse to start, naming it.
      return make_error(decoded.error().code,
                        "job " + std::to_string(s.id.value()) + "'s stored request cannot be read (" +
                            decoded.error().message +
                            "); refusing to start rather than lose it: was the store written by a newer "
                            "Fairway? Start that version, or restore the store from a backup");
    }
    auto [rec, t] = from_row(s, *decoded);
    const JobSpec& spec = rec.spec;
    // A task that started means its array's BEGIN mail went out before the restart.
    if (spec.is_array_task() && s.start_time && out.tracking.contains(spec.array_job.value()))
      out.arrays_begin_mailed.insert(spec.array_job.value());
    // Only a retry could still ask for a token; older ones would be dropped at the first submit.
    if (now - s.submit_time <= ClientTokens::kKept)
      out.tokens.remember(s.user, s.client_token, s.id, s.submit_time);

    if (!spec.array.empty()) {
      // An array's own row: its tasks not stored on their own wait again with it; the
      // tasks' rows, read after it (ids follow the array's), take their places back.
      t.array = true;
      if (is_terminal(s.state)) {
        scheduler.restore_outcome(s.id, s.state);
        if (keeps_view()) {
          out.finished_jobs.keep(s.id).array = true;
          out.finished_jobs.ended(s.id);
        }
        return ok_status();
      }
      if (auto st = scheduler.restore_waiting(spec, s.submit_time); !st) {
        log_event(LogLevel::kError, "job_not_restored",
                  {{"job", std::to_string(s.id.value())}, {"error", st.error().message}});
        return ok_status();
      }
      out.tracking[s.id.value()] = std::move(t);
      ++out.waiting;
      return ok_status();
    }
    if (is_terminal(s.state)) {
      scheduler.restore_outcome(s.id, s.state);
      // Runs that ended on their own are what runtime predictions learn from.
      if (s.start_time && s.end_time &&
          (s.state == JobState::kCompleted || s.state == JobState::kFailed || s.state == JobState::kTimeout ||
           s.state == JobState::kOutOfMemory)) {
        scheduler.restore_runtime(spec.user, *s.end_time - *s.start_time, *s.end_time);
      }
      const bool kept = keeps_view();
      if (kept) out.finished_jobs.keep(spec.id).view = job_view(rec, t, scheduler, s.allocation);
      if (s.start_time && s.end_time) {
        // Declared nodes are known from the start: GPUs are billed by their type now.
        if (!config.nodes.empty()) {
          charge(usage_run_of(scheduler.cluster(), s, spec.account, spec.user, spec.reservation,
                              scheduler.with_default_memory(spec)));
        } else {
          s.request.clear();
          finished_runs.push_back(
              {std::move(s), spec.account, spec.user, spec.reservation, scheduler.with_default_memory(spec)});
        }
      }
      if (kept) out.finished_jobs.ended(spec.id);
      ++out.finished;
      return ok_status();
    }
    if (s.state == JobState::kRunning || s.state == JobState::kCompleting) {
      out.tracking[s.id.value()] = std::move(t);
      if (!adopt_restored(s, scheduler, out.tracking, out.finished_jobs, now, mono))
        out.awaiting_nodes.emplace(s.id.value(), std::move(s));
      ++out.running;
      return ok_status();
    }
    if (auto st = scheduler.restore_waiting(spec, s.submit_time, rec.requeue_count); !st) {
      log_event(LogLevel::kError, "job_not_restored",
                {{"job", std::to_string(s.id.value())}, {"error", st.error().message}});
      return ok_status();
    }
    if (!rec.reason.empty()) (void)scheduler.set_reason(s.id, rec.reason);
    (void)scheduler.set_outcome(s.id, rec.outcome);
    ++out.waiting;
    out.tracking[s.id.value()] = std::move(t);
    return ok_status();
  }));
  out.finished_jobs.trim();  // running jobs that could not be restored ended above

  // Declared nodes exist from the start but take no work until their agents register.
  // Restored running jobs were placed first, while every node still counted as up.
  auto admin = store.load_node_admin_states();
  if (admin) {
    for (const auto& a : *admin) {
      if (a.drained) out.stored_drains[a.node] = a;
    }
  }
  for (const NodeTopology& node : config.nodes) {
    const NodeIndex idx = *scheduler.cluster().find_node(node.name);
    NodeEntry& e = out.nodes.add(node.name, idx, node);
    NodeRegistry::set_reason(e, "not registered yet", out.nodes.system_user(), now);
    if (auto d = out.stored_drains.find(node.name); d != out.stored_drains.end())
      apply_stored_drain(e, d->second);
    scheduler.set_node_up(idx, false);
  }
  // Without [[nodes]], the machine is what registered before: remembered nodes count for
  // admission and show in `fairway nodes`, and take work once their agents are back.
  if (config.nodes.empty()) {
    FAIRWAY_TRY_ASSIGN(known, store.load_meta_prefix(std::string(kKnownNodePrefix)));
    for (const auto& [key, record] : known) {
      auto topology = parse_known_node_record(record);
      if (!topology) {
        return make_error(ErrorCode::kIo,
                          "the store's record of " + key + " is unreadable: " + topology.error().message);
      }
      auto idx = scheduler.add_node(*topology);
      if (!idx) {
        log_event(LogLevel::kWarning, "known_node_skipped",
                  {{"node", topology->name}, {"error", idx.error().message}});
        continue;
      }
      NodeEntry& e = out.nodes.add(topology->name, *idx, *topology);
      NodeRegistry::set_reason(e, "not registered since the coordinator restarted", out.nodes.system_user(),
                               now);
      if (auto d = out.stored_drains.find(e.name); d != out.stored_drains.end())
        apply_stored_drain(e, d->second);
    }
    // Running jobs go back on their nodes while those still count as up (a down node
    // withholds its cores); the nodes then wait, down, for their agents.
    for (auto it = out.awaiting_nodes.begin(); it != out.awaiting_nodes.end();) {
      it = adopt_restored(it->second, scheduler, out.tracking, out.finished_jobs, now, mono)
               ? out.awaiting_nodes.erase(it)
               : std::next(it);
    }
    for (const NodeEntry& e : out.nodes.nodes()) {
      if (e.liveness == NodeLiveness::kUnknown) scheduler.set_node_up(e.index, false);
    }
  }
  // Remembered nodes are known now: GPUs are billed by their type. Purged jobs' runs were
  // resolved when they were purged.
  for (const FinishedRun& f : finished_runs)
    charge(usage_run_of(scheduler.cluster(), f.row, f.account, f.user, f.reservation, f.resources));
  FAIRWAY_TRY_ASSIGN(purged_runs, store.load_usage_runs());
  for (const StoredUsageRun& run : purged_runs) charge(run);
  FAIRWAY_TRY(restore_steps(store, out.tracking));
  scheduler.end_restore(now);
  return out;
}

bool adopt_restored(const StoredJob& row, Scheduler& scheduler,
                    std::unordered_map<std::uint64_t, JobTracking>& tracking, FinishedJobs& finished,
                    Time now, Time mono) {
  auto alloc = allocation_on(row.allocation, scheduler.cluster());
  if (!alloc) return false;  // a node it ran on has not registered yet
  JobTracking& t = tracking[row.id.value()];
  // Read once already: recovery refuses to start from a store whose request cannot be read.
  auto request = decode_stored_request(row.request);
  JobRecord rec = from_row(row, request ? *request : wire::SubmitRequest{}).record;
  rec.allocation = std::move(*alloc);
  Status st = status_of(request);
  if (st) st = scheduler.restore_running(rec);
  if (!st) {
    // Cores taken by another restored job: the store disagrees with itself. Do not guess:
    // the lifecycle ends it, outside the core.
    log_event(LogLevel::kError, "running_job_not_restored",
              {{"job", std::to_string(row.id.value())}, {"error", st.error().message}});
    (void)lifecycle::apply(rec, lifecycle::NotRestored{st.error().message}, now);
    finished.keep(row.id).view = job_view(rec, t, scheduler);
    finished.ended(row.id);
    tracking.erase(row.id.value());  // `t` with it
    return true;
  }
  if (!rec.reason.empty()) (void)scheduler.set_reason(rec.spec.id, rec.reason);
  (void)scheduler.set_outcome(rec.spec.id, rec.outcome);
  // Confirmed when its agent registers listing it; lost (the lifecycle's NodeLost) if no
  // report comes in time.
  t.unconfirmed_since = mono;
  return true;
}

void apply_stored_drain(NodeEntry& n, const NodeAdminState& a) {
  n.drained = true;
  n.reason = a.reason;
  n.reason_by = {a.by_user, a.by_uid};
  n.reason_time = a.at;
}

StoredUsageRun usage_run_of(const ClusterState& cluster, const StoredJob& s, const std::string& account,
                            const std::string& user, const std::string& reservation,
                            const ResourceRequest& resources) {
  StoredUsageRun run{s.id,
                     account,
                     user,
                     reservation,
                     s.start_time.value_or(s.submit_time),
                     s.end_time.value_or(s.submit_time),
                     0,
                     0,
                     {}};
  for (const StoredNodeAllocation& a : s.allocation) {
    run.cores += static_cast<std::int64_t>(a.cores.size());
    run.memory_mb += resources.memory_on_node(std::ssize(a.cores));
    const auto idx = cluster.find_node(a.node);
    if (!idx) continue;
    const auto& gpus = cluster.node(*idx).topology.gpus;
    for (std::int32_t g : a.gpus) {
      if (g >= 0 && static_cast<std::size_t>(g) < gpus.size())
        run.gpu_types.push_back(gpus[static_cast<std::size_t>(g)].type);
    }
  }
  return run;
}

}  // namespace fairway::daemon
