#include "coordinator/daemon/finished_jobs.h"

#include <algorithm>
#include <string>
#include <vector>

#include "coordinator/daemon/recovered_state.h"
#include "coordinator/daemon/stored_request.h"
#include "shared/base/log.h"

namespace fairway::daemon {

Duration usage_horizon(const Config& config) {
  const FairShareConfig& f = config.fairshare;
  Duration horizon = f.window ? *f.window : f.half_life * 20;  // 2^-20: under a millionth left
  const Duration period = [&] {
    switch (config.billing.allocation_period) {
      case CalendarPeriod::kNone:
        return Duration::seconds(0);
      case CalendarPeriod::kMonth:
        return Duration::days(31);
      case CalendarPeriod::kQuarter:
        return Duration::days(92);
      case CalendarPeriod::kYear:
        return Duration::days(366);
    }
    return Duration::seconds(0);
  }();
  return std::max(horizon, period);
}

void FinishedJobs::trim() {
  while (order_.size() > kFinishedViewsKept) {
    kept_.erase(order_.front());
    order_.pop_front();
  }
}

const FinishedJob* FinishedJobs::find(JobId id) const {
  const auto it = kept_.find(id.value());
  return it == kept_.end() ? nullptr : &it->second;
}

void FinishedJobs::purge_expired(Time now, JobStore& store, TurnTransaction& txn,
                                 const Scheduler& scheduler) {
  // Hourly, each turn's purge a bounded batch: a store holding years of finished jobs when
  // keep_finished is first set is emptied over many short turns, never in one that stalls
  // the loop. A full batch means more are due: the next turn goes on.
  if (keep_finished_.is_infinite() || (last_purge_ && now - *last_purge_ < Duration::hours(1))) {
    return;
  }
  if (!txn.open()) return;
  const Time before = now - keep_finished_;
  std::vector<StoredJob> rows;
  auto purged = store.purge_finished_before(before, kPurgeBatch, &rows);
  if (!txn.write(status_of(purged), "purge", JobId())) return;
  // Their runs stay for fair-share as long as they count, which may be longer than
  // keep_finished: usage decays over months, a restart must not forget it.
  for (const StoredJob& s : rows) {
    if (!s.start_time || !s.end_time) continue;
    auto request = decode_stored_request(s.request);
    if (!txn.write(status_of(request), "keep the run of", s.id)) return;
    const JobSpec& spec = request->spec;
    if (!spec.array.empty()) continue;  // an array's own row: its tasks ran, each with its row
    const StoredUsageRun run = usage_run_of(scheduler.cluster(), s, spec.account, spec.user, spec.reservation,
                                            scheduler.with_default_memory(spec));
    if (!txn.write(store.add_usage_run(run), "keep the run of", s.id)) return;
  }
  auto forgotten = store.purge_usage_runs_before(now - usage_horizon_, kPurgeBatch);
  if (!txn.write(status_of(forgotten), "purge usage runs", JobId())) return;
  if (*purged < kPurgeBatch && *forgotten < kPurgeBatch) last_purge_ = now;
  if (*purged > 0) {
    log_event(
        LogLevel::kDebug, "finished_jobs_purged",
        {{"jobs", std::to_string(*purged)}, {"ended_before_epoch_s", std::to_string(before.seconds())}});
  }
}

}  // namespace fairway::daemon
