#include "coordinator/daemon/config_report.h"

#include <algorithm>
#include <sstream>

namespace fairway::daemon {
namespace {

std::string span(Duration d) {
  return d.is_infinite() ? "UNLIMITED" : std::to_string(d.count()) + "s";
}

std::string number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

template <typename T>
std::string optional_text(const std::optional<T>& v, std::string (*text)(T)) {
  return v ? text(*v) : "none";
}

}  // namespace

wire::ConfigReply config_report(const Config& c, Time now) {
  wire::ConfigReply r;
  r.now = now;
  const auto add = [&](std::string key, std::string value) {
    r.entries.push_back({std::move(key), std::move(value)});
  };
  const auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
  add("cluster.name", c.cluster_name);
  add("coordinator.listen_agents", c.coordinator.listen_agents);
  add("coordinator.listen_clients", c.coordinator.listen_clients);
  add("coordinator.state_dir", c.coordinator.state_dir);
  add("coordinator.heartbeat_timeout", span(c.coordinator.heartbeat_timeout));
  add("coordinator.pass_interval", span(c.coordinator.pass_interval));
  add("coordinator.submit_burst", std::to_string(c.coordinator.submit_burst));
  add("coordinator.submit_refill_per_s", number(c.coordinator.submit_refill_per_s));
  add("coordinator.keep_finished", span(c.coordinator.keep_finished));
  add("coordinator.first_job_id", std::to_string(c.coordinator.first_job_id));
  add("agent.heartbeat_interval", span(c.agent.heartbeat_interval));
  add("agent.kill_grace", span(c.agent.kill_grace));
  add("agent.coordinator_lease", span(c.agent.coordinator_lease));
  add("agent.cgroups", c.agent.cgroups);
  add("scheduler.backfill", std::string(to_string(c.scheduler.backfill)));
  add("scheduler.reservation_depth",
      optional_text<std::int32_t>(c.scheduler.reservation_depth,
                                  [](std::int32_t v) { return std::to_string(v); }));
  add("scheduler.reservation_min_priority",
      optional_text<double>(c.scheduler.reservation_min_priority, [](double v) { return number(v); }));
  add("scheduler.reserve_after_wait", optional_text<Duration>(c.scheduler.reserve_after_wait, span));
  add("scheduler.reserve_after_wait_jobs", std::to_string(c.scheduler.reserve_after_wait_jobs));
  add("scheduler.main_loop", flag(c.scheduler.main_loop));
  add("scheduler.runtime_prediction", std::string(to_string(c.scheduler.runtime_prediction)));
  add("scheduler.backfill_order", std::string(to_string(c.scheduler.backfill_order)));
  add("priority.age_per_minute", number(c.priority.age_per_minute));
  add("priority.fairshare", number(c.priority.fairshare));
  add("priority.size", number(c.priority.size));
  add("priority.partition", number(c.priority.partition));
  add("priority.qos", number(c.priority.qos));
  add("priority.expansion_factor", number(c.priority.expansion_factor));
  add("limits.max_array_size", std::to_string(c.limits.max_array_size));
  add("security.private_data", flag(c.security.private_data));
  std::sort(r.entries.begin(), r.entries.end(),
            [](const wire::ConfigEntry& a, const wire::ConfigEntry& b) { return a.key < b.key; });
  return r;
}

}  // namespace fairway::daemon
