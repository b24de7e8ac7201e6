// CoordinatorService start-up: the queue, running jobs and finished jobs come back from
// the store, so a restarted coordinator lists every job it ever accepted.
#include <algorithm>
#include <charconv>

#include "coordinator/daemon/coordinator_service.h"
#include "coordinator/daemon/job_translation.h"
#include "coordinator/daemon/job_views.h"
#include "coordinator/daemon/known_nodes.h"
#include "shared/base/log.h"
#include "shared/base/try.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {

Status CoordinatorService::recover(Time now) {
  std::size_t waiting = 0, running = 0, finished = 0;
  // Fair-share must survive the restart: every run in the store, finished or still
  // running, is charged again, in time order, once all are known (end_restore).
  scheduler_->begin_restore();
  // Project reservations cancelled before the restart stay cancelled (and stop charging
  // where they did); known before any job comes back into one.
  FAIRWAY_TRY_ASSIGN(cancelled, store_->load_meta_prefix(std::string(kReservationCancelledPrefix)));
  for (const auto& [key, value] : cancelled) {
    std::int64_t at = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), at);
    if (ec != std::errc() || end != value.data() + value.size()) {
      return make_error(ErrorCode::kIo, "the store's record of " + key + " is unreadable: '" + value + "'");
    }
    scheduler_->restore_reservation_cancelled(key.substr(kReservationCancelledPrefix.size()),
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
    scheduler_->restore_finished_usage(run.account, run.user, run.cores, run.gpu_types, run.memory_mb,
                                       run.start, run.end, run.reservation);
  };
  // One row at a time: a store of millions of finished jobs is never in memory at once, and
  // only the newest kFinishedViewsKept get a view (older ones: their outcome and usage).
  FAIRWAY_TRY_ASSIGN(finished_rows, store_->count_finished_jobs());
  std::int64_t finished_seen = 0;
  const auto keeps_view = [&] {
    return finished_rows - ++finished_seen < static_cast<std::int64_t>(kFinishedViewsKept);
  };
  FAIRWAY_TRY(store_->scan_jobs([&](StoredJob&& s) -> Status {
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
    if (spec.is_array_task() && s.start_time) {
      if (auto a = tracking_.find(spec.array_job.value()); a != tracking_.end())
        a->second.array_begin_mailed = true;
    }
    // Only a retry could still ask for a token; older ones would be dropped at the first submit.
    if (now - s.submit_time <= ClientTokens::kKept)
      tokens_.remember(s.user, s.client_token, s.id, s.submit_time);

    if (!spec.array.empty()) {
      // An array's own row: its tasks not stored on their own wait again with it; the
      // tasks' rows, read after it (ids follow the array's), take their places back.
      t.array = true;
      if (is_terminal(s.state)) {
        scheduler_->restore_outcome(s.id, s.state);
        if (keeps_view()) {
          tracking_[s.id.value()] = std::move(t);
          finished_order_.push_back(s.id.value());
        }
        return ok_status();
      }
      if (auto st = scheduler_->restore_waiting(spec, s.submit_time); !st) {
        log_event(LogLevel::kError, "job_not_restored",
                  {{"job", std::to_string(s.id.value())}, {"error", st.error().message}});
        return ok_status();
      }
      tracking_[s.id.value()] = std::move(t);
      ++waiting;
      return ok_status();
    }
    if (is_terminal(s.state)) {
      scheduler_->restore_outcome(s.id, s.state);
      // Runs that ended on their own are what runtime predictions learn from.
      if (s.start_time && s.end_time &&
          (s.state == JobState::kCompleted || s.state == JobState::kFailed || s.state == JobState::kTimeout ||
           s.state == JobState::kOutOfMemory)) {
        scheduler_->restore_runtime(spec.user, *s.end_time - *s.start_time, *s.end_time);
      }
      const bool kept = keeps_view();
      if (kept) t.final_view = job_view(rec, t, *scheduler_, s.allocation);
      if (s.start_time && s.end_time) {
        // Declared nodes are known from the start: GPUs are billed by their type now.
        if (!config_.nodes.empty()) {
          charge(usage_run_of(s, spec.account, spec.user, spec.reservation,
                              scheduler_->with_default_memory(spec)));
        } else {
          s.request.clear();
          finished_runs.push_back({std::move(s), spec.account, spec.user, spec.reservation,
                                   scheduler_->with_default_memory(spec)});
        }
      }
      if (kept) {
        finished_order_.push_back(spec.id.value());
        tracking_[spec.id.value()] = std::move(t);
      }
      ++finished;
      return ok_status();
    }
    if (s.state == JobState::kRunning || s.state == JobState::kCompleting) {
      tracking_[s.id.value()] = std::move(t);
      if (!adopt_restored(s, now)) awaiting_nodes_.emplace(s.id.value(), std::move(s));
      ++running;
      return ok_status();
    }
    if (auto st = scheduler_->restore_waiting(spec, s.submit_time, rec.requeue_count); !st) {
      log_event(LogLevel::kError, "job_not_restored",
                {{"job", std::to_string(s.id.value())}, {"error", st.error().message}});
      return ok_status();
    }
    if (!rec.reason.empty()) (void)scheduler_->set_reason(s.id, rec.reason);
    (void)scheduler_->set_outcome(s.id, rec.outcome);
    ++waiting;
    tracking_[s.id.value()] = std::move(t);
    return ok_status();
  }));
  trim_finished();  // running jobs that could not be restored ended above

  // Declared nodes exist from the start but take no work until their agents register.
  // Restored running jobs were placed first, while every node still counted as up.
  auto admin = store_->load_node_admin_states();
  if (admin) {
    for (const auto& a : *admin) {
      if (a.drained) stored_drains_[a.node] = a;
    }
  }
  for (const NodeTopology& node : config_.nodes) {
    const NodeIndex idx = *scheduler_->cluster().find_node(node.name);
    NodeEntry& e = registry_.add(node.name, idx, node);
    NodeRegistry::set_reason(e, "not registered yet", registry_.system_user(), now);
    if (auto d = stored_drains_.find(node.name); d != stored_drains_.end()) apply_stored_drain(e, d->second);
    scheduler_->set_node_up(idx, false);
  }
  // Without [[nodes]], the machine is what registered before: remembered nodes count for
  // admission and show in `fairway nodes`, and take work once their agents are back.
  if (config_.nodes.empty()) {
    FAIRWAY_TRY_ASSIGN(known, store_->load_meta_prefix(std::string(kKnownNodePrefix)));
    for (const auto& [key, record] : known) {
      auto topology = parse_known_node_record(record);
      if (!topology) {
        return make_error(ErrorCode::kIo,
                          "the store's record of " + key + " is unreadable: " + topology.error().message);
      }
      auto idx = scheduler_->add_node(*topology);
      if (!idx) {
        log_event(LogLevel::kWarning, "known_node_skipped",
                  {{"node", topology->name}, {"error", idx.error().message}});
        continue;
      }
      NodeEntry& e = registry_.add(topology->name, *idx, *topology);
      NodeRegistry::set_reason(e, "not registered since the coordinator restarted", registry_.system_user(),
                               now);
      if (auto d = stored_drains_.find(e.name); d != stored_drains_.end()) apply_stored_drain(e, d->second);
    }
    // Running jobs go back on their nodes while those still count as up (a down node
    // withholds its cores); the nodes then wait, down, for their agents.
    for (auto it = awaiting_nodes_.begin(); it != awaiting_nodes_.end();) {
      it = adopt_restored(it->second, now) ? awaiting_nodes_.erase(it) : std::next(it);
    }
    for (const NodeEntry& e : registry_.nodes()) {
      if (e.liveness == NodeLiveness::kUnknown) scheduler_->set_node_up(e.index, false);
    }
  }
  // Remembered nodes are known now: GPUs are billed by their type. Purged jobs' runs were
  // resolved when they were purged.
  for (const FinishedRun& f : finished_runs)
    charge(usage_run_of(f.row, f.account, f.user, f.reservation, f.resources));
  FAIRWAY_TRY_ASSIGN(purged_runs, store_->load_usage_runs());
  for (const StoredUsageRun& run : purged_runs) charge(run);
  FAIRWAY_TRY(restore_steps());
  scheduler_->end_restore(now);
  last_pass_ = now;
  log_event(LogLevel::kInfo, "coordinator_recovered",
            {{"waiting", std::to_string(waiting)},
             {"running", std::to_string(running)},
             {"finished", std::to_string(finished)}});
  return ok_status();
}

bool CoordinatorService::adopt_restored(const StoredJob& row, Time now) {
  auto alloc = allocation_on(row.allocation, scheduler_->cluster());
  if (!alloc) return false;  // a node it ran on has not registered yet
  JobTracking& t = tracking_[row.id.value()];
  // Read once already: recovery refuses to start from a store whose request cannot be read.
  auto request = decode_stored_request(row.request);
  JobRecord rec = from_row(row, request ? *request : wire::SubmitRequest{}).record;
  rec.allocation = std::move(*alloc);
  Status st = status_of(request);
  if (st) st = scheduler_->restore_running(rec.spec, rec.allocation, rec.start_time, rec.requeue_count);
  if (!st) {
    // Cores taken by another restored job: the store disagrees with itself. Do not guess:
    // the lifecycle ends it, outside the core.
    log_event(LogLevel::kError, "running_job_not_restored",
              {{"job", std::to_string(row.id.value())}, {"error", st.error().message}});
    (void)lifecycle::apply(rec, lifecycle::NotRestored{st.error().message}, now);
    t.final_view = job_view(rec, t, *scheduler_);
    finished_order_.push_back(row.id.value());
    return true;
  }
  if (!rec.reason.empty()) (void)scheduler_->set_reason(rec.spec.id, rec.reason);
  (void)scheduler_->set_outcome(rec.spec.id, rec.outcome);
  // Confirmed when its agent registers listing it; lost (the lifecycle's NodeLost) if no
  // report comes in time.
  t.unconfirmed_since = mono(now);
  return true;
}

void CoordinatorService::apply_stored_drain(NodeEntry& n, const NodeAdminState& a) {
  n.drained = true;
  n.reason = a.reason;
  n.reason_by = {a.by_user, a.by_uid};
  n.reason_time = a.at;
}

}  // namespace fairway::daemon
