// A coordinator restart: running jobs back on their cores, and fair-share (the runs of
// restored jobs, finished runs from the store and project reservations' charges) replayed
// into the ledger in time order.
#include <algorithm>
#include <cassert>

#include "coordinator/core/billing_rate.h"
#include "coordinator/core/placement.h"
#include "coordinator/core/scheduler.h"
#include "shared/base/try.h"

namespace fairway {

Status Scheduler::restore_running(const JobRecord& stored) {
  const std::string job = "job " + std::to_string(stored.spec.id.value());
  for (const auto& na : stored.allocation.nodes) {
    if (na.node.value() >= cluster_.node_count()) return invalid_argument(job + ": unknown node index");
    const NodeState& ns = cluster_.node(na.node);
    for (std::int32_t c : na.cores) {
      if (c < 0 || static_cast<std::size_t>(c) >= ns.core_used.size() ||
          !ns.core_free(static_cast<std::size_t>(c))) {
        return make_error(ErrorCode::kFailedPrecondition, job + ": core " + std::to_string(c) + " of node '" +
                                                              ns.topology.name + "' is not free");
      }
    }
    for (std::int32_t g : na.gpus) {
      if (g < 0 || static_cast<std::size_t>(g) >= ns.gpu_used.size() ||
          !ns.gpu_usable(static_cast<std::size_t>(g))) {
        return make_error(ErrorCode::kFailedPrecondition, job + ": GPU " + std::to_string(g) + " of node '" +
                                                              ns.topology.name + "' is not free");
      }
    }
  }
  JobSpec spec = stored.spec;
  spec.hold = false;
  FAIRWAY_TRY(readmit(std::move(spec), stored.start_time));
  JobRecord& j = *find(stored.spec.id);
  j.requeue_count = stored.requeue_count;
  // Stored allocations name cores, not memory: it follows from the admitted request.
  Allocation alloc = stored.allocation;
  assign_memory(alloc, j.spec.resources);
  start_job(j, std::move(alloc), stored.start_time);
  return ok_status();
}

void Scheduler::restore_outcome(JobId id, JobState final_state) {
  if (!is_terminal(final_state)) return;
  // A task that ended before the restart: its array holds it no more.
  if (const ArrayJob* a = arrays_.unmade_holder(id)) {
    open_jobs_.add(a->prototype.spec, -1);  // the array counted it
    arrays_.unmade_task_ended(id, final_state, ended_);
  }
  ended_.record(id, final_state);
}

void Scheduler::begin_restore() {
  restored_usage_.emplace();
}

void Scheduler::restore_finished_usage(const std::string& account, const std::string& user,
                                       std::int64_t cores, const std::vector<std::string>& gpu_types,
                                       std::int64_t memory_mb, Time start, Time end,
                                       const std::string& reservation) {
  if (!restored_usage_) {
    assert(false && "restore_finished_usage outside begin_restore/end_restore");
    return;
  }
  // A project reservation's job was paid for by the reservation while it lasted.
  if (!reservation.empty()) start = reservations_.charged_from(reservation, start);
  if (end <= start) return;
  const double rate = billing_rate(config_.billing, cores, gpu_types, memory_mb);
  if (rate == 0) return;
  const AssociationIndex a = ledger_.association(account, user);
  restored_usage_->push_back({start, a, rate});
  restored_usage_->push_back({end, a, -rate});
}

void Scheduler::end_restore(std::optional<Time> now) {
  if (!restored_usage_) return;
  // Project reservations charged before the restart are charged again from their start.
  if (now) {
    for (const ReservationCharge& c :
         reservations_.restored_charges(*now, maintenance_, cluster_, ledger_, config_.billing)) {
      restored_usage_->push_back({c.at, c.association, c.rate});
    }
  }
  std::vector<UsageChange> changes = std::move(*restored_usage_);
  restored_usage_.reset();
  // Starts before ends at the same instant: the order only matters to rounding.
  std::stable_sort(changes.begin(), changes.end(), [](const UsageChange& x, const UsageChange& y) {
    if (x.at != y.at) return x.at < y.at;
    return x.rate > y.rate;
  });
  for (const UsageChange& c : changes) ledger_.start_usage(c.association, c.rate, c.at);
}

void Scheduler::restore_runtime(const std::string& user, Duration runtime, Time ended) {
  if (config_.scheduler.runtime_prediction == RuntimePrediction::kNone) return;
  runtimes_.record(user, runtime, ended);
}

Duration Scheduler::predicted_runtime(const std::string& user, Duration limit) const {
  if (config_.scheduler.runtime_prediction == RuntimePrediction::kNone) return limit;
  return runtimes_.predict(user, limit);
}

void Scheduler::restore_reservation_cancelled(const std::string& name, Time at) {
  reservations_.restore_cancelled(name, at, maintenance_);
}

}  // namespace fairway
