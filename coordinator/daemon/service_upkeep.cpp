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
  // Hourly, so that each purge deletes an hour's worth of jobs and never stalls the loop.
  if (config_.coordinator.keep_finished.is_infinite() || (last_purge_ && now - *last_purge_ < Duration::hours(1))) {
    return;
  }
  last_purge_ = now;
  if (!ensure_txn()) return;
  const Time before = now - config_.coordinator.keep_finished;
  if (auto st = store_->purge_finished_before(before); !st) {
    txn_failed_ = true;
    log_event(LogLevel::kWarning, "purge_failed", {{"error", st.error().message}});
    return;
  }
  log_event(LogLevel::kDebug, "finished_jobs_purged", {{"ended_before_epoch_s", std::to_string(before.seconds())}});
}

}  // namespace fairway::daemon
