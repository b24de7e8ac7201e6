// What a SIGHUP may change in a running coordinator: everything the scheduling core and the
// service read (partitions, limits, weights, QOS, accounts, nodes, security rules), but not
// the sockets, the state directory or the keys, which need a restart. Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "shared/config/config.h"

namespace fairway::daemon {

struct ReloadPlan {
  Config apply;                            // the new config, restart-only keys as running
  std::vector<std::string> needs_restart;  // "coordinator.listen_agents", ... that differ
};

ReloadPlan plan_reload(const Config& running, Config fresh);

}  // namespace fairway::daemon
