// Fair-share across a coordinator restart: the runs of restored jobs, finished runs from
// the store and project reservations' charges, replayed into the ledger in time order.
#include <algorithm>
#include <cassert>

#include "coordinator/core/billing_rate.h"
#include "coordinator/core/scheduler.h"

namespace fairway {

void Scheduler::begin_restore() { restored_usage_.emplace(); }

void Scheduler::restore_finished_usage(const std::string& account, const std::string& user, std::int64_t cores,
                                       const std::vector<std::string>& gpu_types, std::int64_t memory_mb,
                                       Time start, Time end,
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
    for (const ReservationCharge& c : reservations_.restored_charges(*now, maintenance_, cluster_, ledger_, config_.billing)) {
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
