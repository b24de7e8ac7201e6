// The coordinator's running settings for clients (`fairway show config`, scontrol show
// config). Plain data; included by messages.h, which lists them in the Message variant.
#pragma once

#include <string>
#include <vector>

#include "shared/base/time.h"

namespace fairway::wire {

// Client -> coordinator: the settings it runs with.
struct ConfigQuery {
  bool operator==(const ConfigQuery&) const = default;
};

// One setting, named as the config file names it ("scheduler.backfill") and written as a
// value there would be ("easy", "30s", "true").
struct ConfigEntry {
  std::string key;
  std::string value;
  bool operator==(const ConfigEntry&) const = default;
};

struct ConfigReply {
  Time now;  // the coordinator's clock: when the settings were read
  std::vector<ConfigEntry> entries;
  bool operator==(const ConfigReply&) const = default;
};

}  // namespace fairway::wire
