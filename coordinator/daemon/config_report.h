// `fairway show config` (scontrol show config): the settings the coordinator runs with, as
// the config file names and writes them. Pure read of the config; thread-safe.
#pragma once

#include "shared/base/time.h"
#include "shared/config/config.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

// The cluster-wide settings a user or a tool may want to know (none is secret: key files
// are named, never read), sorted by key. The nodes, partitions, QOS and accounts have views
// of their own (show node, show partition, shares).
wire::ConfigReply config_report(const Config& config, Time now);

}  // namespace fairway::daemon
