// `fairway show config`: the coordinator's settings as "key = value" lines, or in Slurm's
// `scontrol show config` layout for the settings that mean what Slurm's do. Pure; thread-safe.
#pragma once

#include <string>

#include "shared/wire/messages.h"

namespace fairway::cli {

// One "key = value" line per setting, as the config file would write it.
std::string render_config(const wire::ConfigReply& reply);

// How long `scontrol show job` (no id) still lists a job after it ended: Slurm's MinJobAge.
inline constexpr int kMinJobAgeSeconds = 300;

// Slurm 22.05's layout: "Configuration data as of <time>", then "Key<padded to 23> = value"
// for every key scontrol prints, in its order: Fairway's value where its settings carry the
// meaning (ClusterName, FirstJobId, KillWait, MaxArraySize, SlurmdTimeout, ...), else the
// value a stock Slurm prints.
std::string render_scontrol_config(const wire::ConfigReply& reply);

}  // namespace fairway::cli
