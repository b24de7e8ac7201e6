// Reads a config file from disk and parses it. Kept apart from parse_config so the pure
// scheduling core can link the config types without linking file I/O.
#pragma once

#include <string>

#include "shared/config/config.h"

namespace fairway {

Result<Config> load_config_file(const std::string& path);

}  // namespace fairway
