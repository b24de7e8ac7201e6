// Finds the coordinator's client endpoint: --coordinator, then $FAIRWAY_COORDINATOR, then
// coordinator.listen_clients of the config file, then the built-in default. Reads the file.
#pragma once

#include <optional>
#include <string>

#include "shared/base/result.h"

namespace fairway::cli {

struct EndpointSources {
  std::optional<std::string> flag;                           // --coordinator
  std::optional<std::string> env_coordinator;                // $FAIRWAY_COORDINATOR
  std::optional<std::string> config_flag;                    // --config
  std::optional<std::string> env_conf;                       // $FAIRWAY_CONF
  std::string default_config = "/etc/fairway/fairway.toml";  // read only if it exists
};

// A config file named by --config or $FAIRWAY_CONF must load; its error names the file.
Result<std::string> resolve_coordinator_endpoint(const EndpointSources& sources);

// The sources as this process sees them (environment), with the given flags.
EndpointSources endpoint_sources_from_environment(std::optional<std::string> flag,
                                                  std::optional<std::string> config_flag);

}  // namespace fairway::cli
