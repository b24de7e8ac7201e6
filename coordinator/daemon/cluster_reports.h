// The coordinator's reports: metrics (for `fairway diag` and the Prometheus endpoint),
// partitions (`fairway show partition`) and fair-share (`fairway shares`), built from the
// scheduler, the node registry and the service's counters. Pure reads; one owner thread.
#pragma once

#include <optional>
#include <string>

#include "coordinator/core/scheduler.h"
#include "coordinator/daemon/node_registry.h"
#include "coordinator/daemon/service_counters.h"
#include "shared/base/result.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

struct ReportSources {
  const Scheduler& scheduler;
  const NodeRegistry& registry;
  const ServiceCounters& counters;
  Time now;
};

// `account_usage` false (security.private_data, a caller who is not an admin, or the
// unauthenticated Prometheus endpoint): no per-account usage family, as sshare under
// Slurm's PrivateData=usage shows a user no one else's usage.
wire::MetricsReply metrics_report(const ReportSources& s, bool account_usage = true);

// Every partition, or those named (an unknown name is kNotFound, naming it).
Result<wire::PartitionQueryReply> partition_report(const ReportSources& s, const wire::PartitionQuery& q);

// Accounts and their users, filtered by the query; `only_user` set (security.private_data,
// a caller who is not an admin): that user's rows and their accounts' rows only.
wire::SharesReply shares_report(const ReportSources& s, const wire::SharesQuery& q,
                                const std::optional<std::string>& only_user);

}  // namespace fairway::daemon
