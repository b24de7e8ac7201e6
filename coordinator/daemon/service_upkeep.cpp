// What CoordinatorService tells monitoring: the metrics snapshot (fairway diag, the
// Prometheus endpoint) and systemd's status line.
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
  if (probe_.read_only()) line += "; READ-ONLY: " + probe_.why();
  return line;
}

}  // namespace fairway::daemon
