#include "coordinator/daemon/config_reload.h"

namespace fairway::daemon {

ReloadPlan plan_reload(const Config& running, Config fresh) {
  ReloadPlan plan;
  // Each of these is bound or opened once at start-up: the new value would be silently
  // ignored, so it is kept as running and named, and the admin restarts to apply it.
  const auto keep = [&](const char* key, auto& fresh_value, const auto& running_value) {
    if (fresh_value == running_value) return;
    plan.needs_restart.push_back(key);
    fresh_value = running_value;
  };
  keep("coordinator.listen_agents", fresh.coordinator.listen_agents, running.coordinator.listen_agents);
  keep("coordinator.listen_clients", fresh.coordinator.listen_clients, running.coordinator.listen_clients);
  keep("coordinator.state_dir", fresh.coordinator.state_dir, running.coordinator.state_dir);
  keep("coordinator.metrics_listen", fresh.coordinator.metrics_listen, running.coordinator.metrics_listen);
  keep("security.agent_auth", fresh.security.agent_auth, running.security.agent_auth);
  keep("security.coordinator_secret_key", fresh.security.coordinator_secret_key,
       running.security.coordinator_secret_key);
  keep("security.agent_keys_dir", fresh.security.agent_keys_dir, running.security.agent_keys_dir);
  plan.apply = std::move(fresh);
  return plan;
}

}  // namespace fairway::daemon
