// CoordinatorService's upkeep and what it tells monitoring: the metrics snapshot (fairway
// diag, the Prometheus endpoint), systemd's status line, and the store's retention.
#include "coordinator/daemon/cluster_reports.h"
#include "coordinator/daemon/coordinator_service.h"
#include "shared/base/log.h"

namespace fairway::daemon {

wire::MetricsReply CoordinatorService::metrics(Time now) const {
  return metrics_report({*scheduler_, registry_, counters_, now});
}

std::string CoordinatorService::status_line() const {
  std::size_t up = 0;
  for (const NodeEntry& n : registry_.nodes()) up += n.liveness == NodeLiveness::kUp ? 1 : 0;
  std::string line = std::to_string(scheduler_->waiting().size()) + " jobs waiting, " +
                     std::to_string(scheduler_->running().size()) + " running; " + std::to_string(up) + " of " +
                     std::to_string(registry_.nodes().size()) + " nodes up";
  if (!read_only_.empty()) line += "; READ-ONLY: " + read_only_;
  return line;
}

void CoordinatorService::purge_expired(Time now) {
  // Hourly, each turn's purge a bounded batch: a store holding years of finished jobs when
  // keep_finished is first set is emptied over many short turns, never in one that stalls
  // the loop. A full batch means more are due: the next turn goes on.
  if (config_.coordinator.keep_finished.is_infinite() || (last_purge_ && now - *last_purge_ < Duration::hours(1))) {
    return;
  }
  if (!ensure_txn()) return;
  const Time before = now - config_.coordinator.keep_finished;
  auto purged = store_->purge_finished_before(before, kPurgeBatch);
  if (!purged) {
    txn_failed_ = true;
    log_event(LogLevel::kWarning, "purge_failed", {{"error", purged.error().message}});
    return;
  }
  if (*purged < kPurgeBatch) last_purge_ = now;
  if (*purged > 0) {
    log_event(LogLevel::kDebug, "finished_jobs_purged",
              {{"jobs", std::to_string(*purged)}, {"ended_before_epoch_s", std::to_string(before.seconds())}});
  }
}

}  // namespace fairway::daemon
