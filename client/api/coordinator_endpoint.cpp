#include "client/api/coordinator_endpoint.h"

#include <cstdlib>
#include <filesystem>

#include "shared/config/config_file.h"

namespace fairway::cli {
namespace {

std::optional<std::string> non_empty_env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

}  // namespace

Result<std::string> resolve_coordinator_endpoint(const EndpointSources& s) {
  if (s.flag) {
    if (s.flag->empty()) return invalid_argument("--coordinator: empty endpoint");
    return *s.flag;
  }
  if (s.env_coordinator && !s.env_coordinator->empty()) return *s.env_coordinator;
  std::optional<std::string> path = s.config_flag;
  if (!path && s.env_conf && !s.env_conf->empty()) path = s.env_conf;
  std::error_code ec;
  if (!path && std::filesystem::exists(s.default_config, ec)) path = s.default_config;
  if (!path) return Config{}.coordinator.listen_clients;
  auto config = load_config_file(*path);
  if (!config) return std::unexpected(config.error().with_context("config " + *path));
  return config->coordinator.listen_clients;
}

EndpointSources endpoint_sources_from_environment(std::optional<std::string> flag,
                                                  std::optional<std::string> config_flag) {
  EndpointSources s;
  s.flag = std::move(flag);
  s.config_flag = std::move(config_flag);
  s.env_coordinator = non_empty_env("FAIRWAY_COORDINATOR");
  s.env_conf = non_empty_env("FAIRWAY_CONF");
  return s;
}

}  // namespace fairway::cli
