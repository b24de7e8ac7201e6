// CoordinatorService's upkeep and what it tells monitoring: the metrics snapshot (fairway
// diag, the Prometheus endpoint), systemd's status line, and the store's retention.
#include <algorithm>

#include "coordinator/daemon/cluster_reports.h"
#include "coordinator/daemon/coordinator_service.h"
#include "shared/base/log.h"

namespace fairway::daemon {

wire::MetricsReply CoordinatorService::metrics(Time now) const {
  // The Prometheus endpoint cannot tell who scrapes it: under private_data, nobody's usage.
  return metrics_report({*scheduler_, registry_, counters_, now}, !config_.security.private_data);
}

std::string CoordinatorService::status_line() const {
  std::size_t up = 0;
  for (const NodeEntry& n : registry_.nodes()) up += n.liveness == NodeLiveness::kUp ? 1 : 0;
  std::string line = std::to_string(scheduler_->waiting().size()) + " jobs waiting, " +
                     std::to_string(scheduler_->running().size()) + " running; " + std::to_string(up) +
                     " of " + std::to_string(registry_.nodes().size()) + " nodes up";
  if (!read_only_.empty()) line += "; READ-ONLY: " + read_only_;
  return line;
}

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

void CoordinatorService::purge_expired(Time now) {
  // Hourly, each turn's purge a bounded batch: a store holding years of finished jobs when
  // keep_finished is first set is emptied over many short turns, never in one that stalls
  // the loop. A full batch means more are due: the next turn goes on.
  if (config_.coordinator.keep_finished.is_infinite() ||
      (last_purge_ && now - *last_purge_ < Duration::hours(1))) {
    return;
  }
  if (!ensure_txn()) return;
  const Time before = now - config_.coordinator.keep_finished;
  std::vector<StoredJob> rows;
  auto purged = store_->purge_finished_before(before, kPurgeBatch, &rows);
  if (!write(status_of(purged), "purge", JobId())) return;
  // Their runs stay for fair-share as long as they count, which may be longer than
  // keep_finished: usage decays over months, a restart must not forget it.
  for (const StoredJob& s : rows) {
    if (!s.start_time || !s.end_time) continue;
    auto request = decode_stored_request(s.request);
    if (!write(status_of(request), "keep the run of", s.id)) return;
    const JobSpec& spec = request->spec;
    if (!spec.array.empty()) continue;  // an array's own row: its tasks ran, each with its row
    const StoredUsageRun run =
        usage_run_of(s, spec.account, spec.user, spec.reservation, scheduler_->with_default_memory(spec));
    if (!write(store_->add_usage_run(run), "keep the run of", s.id)) return;
  }
  auto forgotten = store_->purge_usage_runs_before(now - usage_horizon(config_), kPurgeBatch);
  if (!write(status_of(forgotten), "purge usage runs", JobId())) return;
  if (*purged < kPurgeBatch && *forgotten < kPurgeBatch) last_purge_ = now;
  if (*purged > 0) {
    log_event(
        LogLevel::kDebug, "finished_jobs_purged",
        {{"jobs", std::to_string(*purged)}, {"ended_before_epoch_s", std::to_string(before.seconds())}});
  }
}

}  // namespace fairway::daemon
