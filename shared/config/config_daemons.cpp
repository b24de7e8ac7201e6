// The [coordinator] and [agent] tables: endpoints, state paths and timers of the daemons.
#include <string>
#include <string_view>

#include "shared/config/config_sections.h"
#include "shared/config/toml_reading.h"

namespace fairway::config_internal {
namespace {

// ZeroMQ endpoints we serve on: a typo here would otherwise surface as a bind error
// far from the config line that caused it.
Status check_endpoint(const TomlReader& r, std::string_view path, const std::string& e) {
  for (std::string_view scheme : {"tcp://", "ipc://", "inproc://"}) {
    if (e.starts_with(scheme) && e.size() > scheme.size()) return ok_status();
  }
  return r.fail(path, "invalid endpoint '" + e + "' (expected tcp://HOST:PORT or ipc://PATH)");
}

Status parse_coordinator(const TomlReader& r, const toml::table& root, CoordinatorConfig& c) {
  FAIRWAY_TRY_ASSIGN(tbl, r.sub_table(root, "coordinator", ""));
  if (tbl == nullptr) return ok_status();
  const toml::table& t = *tbl;
  const char* p = "coordinator";
  FAIRWAY_TRY(r.check_keys(
      t, p,
      {"listen_agents", "listen_clients", "state_dir", "heartbeat_timeout", "pass_interval", "submit_burst",
       "submit_refill_per_s", "mail_program", "metrics_listen", "keep_finished", "first_job_id"}));
  FAIRWAY_TRY(r.read_string(t, "listen_agents", p, c.listen_agents));
  FAIRWAY_TRY(check_endpoint(r, "coordinator.listen_agents", c.listen_agents));
  FAIRWAY_TRY(r.read_string(t, "listen_clients", p, c.listen_clients));
  FAIRWAY_TRY(check_endpoint(r, "coordinator.listen_clients", c.listen_clients));
  FAIRWAY_TRY(r.read_string(t, "state_dir", p, c.state_dir));
  if (c.state_dir.empty()) return r.fail("coordinator.state_dir", "must not be empty");
  FAIRWAY_TRY(r.read_time(t, "heartbeat_timeout", p, true, c.heartbeat_timeout));
  FAIRWAY_TRY(r.read_time(t, "pass_interval", p, true, c.pass_interval));
  FAIRWAY_TRY(r.read_int(t, "submit_burst", p, 1, 1000000000, c.submit_burst));
  FAIRWAY_TRY(r.read_number(t, "submit_refill_per_s", p, false, c.submit_refill_per_s));
  FAIRWAY_TRY(r.read_string(t, "mail_program", p, c.mail_program));
  if (!c.mail_program.empty() && c.mail_program.front() != '/') {
    return r.fail("coordinator.mail_program",
                  "\"" + c.mail_program + "\" must be an absolute path (or empty: no mail)");
  }
  FAIRWAY_TRY(r.read_time(t, "keep_finished", p, true, c.keep_finished));
  // Below 2^53, as every job id (JSON readers take numbers as doubles).
  FAIRWAY_TRY(r.read_int(t, "first_job_id", p, 1, (std::int64_t{1} << 53) - 1, c.first_job_id));
  FAIRWAY_TRY(r.read_string(t, "metrics_listen", p, c.metrics_listen));
  if (!c.metrics_listen.empty()) {
    const auto colon = c.metrics_listen.rfind(':');
    const std::string port = colon == std::string::npos ? "" : c.metrics_listen.substr(colon + 1);
    const bool digits = !port.empty() && port.size() <= 5 &&
                        port.find_first_not_of("0123456789") == std::string::npos && std::stoi(port) <= 65535;
    if (colon == std::string::npos || colon == 0 || !digits) {
      return r.fail("coordinator.metrics_listen",
                    "\"" + c.metrics_listen + "\" is not HOST:PORT (e.g. 127.0.0.1:9810)");
    }
  }
  return ok_status();
}

Status parse_agent(const TomlReader& r, const toml::table& root, AgentConfig& a) {
  FAIRWAY_TRY_ASSIGN(tbl, r.sub_table(root, "agent", ""));
  if (tbl == nullptr) return ok_status();
  const toml::table& t = *tbl;
  const char* p = "agent";
  FAIRWAY_TRY(r.check_keys(
      t, p,
      {"spool_dir", "heartbeat_interval", "kill_grace", "allow_root_jobs", "coordinator_lease", "cgroups",
       "require_enforcement", "cgroup_subtree", "max_pids_per_job", "reserved_memory_mb"}));
  FAIRWAY_TRY(r.read_string(t, "spool_dir", p, a.spool_dir));
  if (a.spool_dir.empty()) return r.fail("agent.spool_dir", "must not be empty");
  FAIRWAY_TRY(r.read_time(t, "heartbeat_interval", p, true, a.heartbeat_interval));
  FAIRWAY_TRY(r.read_time(t, "kill_grace", p, false, a.kill_grace));
  FAIRWAY_TRY(r.read_bool(t, "allow_root_jobs", p, a.allow_root_jobs));
  FAIRWAY_TRY(r.read_time(t, "coordinator_lease", p, false, a.coordinator_lease));
  FAIRWAY_TRY(r.read_string(t, "cgroups", p, a.cgroups));
  if (a.cgroups != "auto" && a.cgroups != "v2" && a.cgroups != "v1" && a.cgroups != "off") {
    return r.fail("agent.cgroups", "\"" + a.cgroups + "\" is not one of auto, v2, v1, off");
  }
  FAIRWAY_TRY(r.read_bool(t, "require_enforcement", p, a.require_enforcement));
  FAIRWAY_TRY(r.read_string(t, "cgroup_subtree", p, a.cgroup_subtree));
  FAIRWAY_TRY(r.read_int(t, "max_pids_per_job", p, 0, 4194304, a.max_pids_per_job));
  FAIRWAY_TRY(r.read_int(t, "reserved_memory_mb", p, 0, std::int64_t{1} << 40, a.reserved_memory_mb));
  if (a.cgroup_subtree.starts_with('/') || a.cgroup_subtree.ends_with('/') ||
      a.cgroup_subtree.find("..") != std::string::npos || a.cgroup_subtree.find("//") != std::string::npos) {
    return r.fail("agent.cgroup_subtree",
                  "\"" + a.cgroup_subtree + "\" must be a relative path such as fairway/cn01");
  }
  if (a.require_enforcement && a.cgroups == "off") {
    return r.fail("agent.require_enforcement", "is true but agent.cgroups is \"off\"");
  }
  if (a.coordinator_lease < a.heartbeat_interval * 3) {
    return r.fail("agent.coordinator_lease", "must be at least 3 heartbeat intervals (" +
                                                 std::to_string(a.heartbeat_interval.count() * 3) +
                                                 " s), got " + std::to_string(a.coordinator_lease.count()) +
                                                 " s");
  }
  return ok_status();
}

Status parse_security(const TomlReader& r, const toml::table& root, SecurityConfig& s) {
  FAIRWAY_TRY_ASSIGN(tbl, r.sub_table(root, "security", ""));
  if (tbl == nullptr) return ok_status();
  const toml::table& t = *tbl;
  const char* p = "security";
  FAIRWAY_TRY(
      r.check_keys(t, p,
                   {"admin_group", "private_data", "munge_socket", "agent_auth", "coordinator_secret_key",
                    "agent_keys_dir", "coordinator_public_key", "agent_secret_key"}));
  FAIRWAY_TRY(r.read_choice(
      t, "agent_auth", p, {std::pair{"curve", AgentAuth::kCurve}, {"none", AgentAuth::kNone}}, s.agent_auth));
  for (auto [key, out] : {std::pair{"coordinator_secret_key", &s.coordinator_secret_key},
                          std::pair{"agent_keys_dir", &s.agent_keys_dir},
                          std::pair{"coordinator_public_key", &s.coordinator_public_key},
                          std::pair{"agent_secret_key", &s.agent_secret_key}}) {
    FAIRWAY_TRY(r.read_string(t, key, p, *out));
    if (out->empty() || out->front() != '/') {
      return r.fail(std::string("security.") + key, "must be an absolute path, got '" + *out + "'");
    }
  }
  FAIRWAY_TRY(r.read_string(t, "admin_group", p, s.admin_group));
  FAIRWAY_TRY(r.read_bool(t, "private_data", p, s.private_data));
  FAIRWAY_TRY(r.read_string(t, "munge_socket", p, s.munge_socket));
  if (!s.munge_socket.empty() && s.munge_socket.front() != '/') {
    return r.fail("security.munge_socket", "must be an absolute path, got '" + s.munge_socket + "'");
  }
  return ok_status();
}

}  // namespace

Status parse_daemons(const TomlReader& r, const toml::table& root, Config& cfg) {
  FAIRWAY_TRY(parse_coordinator(r, root, cfg.coordinator));
  FAIRWAY_TRY(parse_security(r, root, cfg.security));
  return parse_agent(r, root, cfg.agent);
}

}  // namespace fairway::config_internal
