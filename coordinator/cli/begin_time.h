// sbatch's --begin forms read into an absolute time: "now+1hour", "16:00", "2026-12-01",
// "2026-12-01T08:30:00", "midnight", "noon", "teatime", "today", "tomorrow". Clock-free:
// `now` comes from the caller; local times use the process's time zone (TZ).
#pragma once

#include <string_view>

#include "shared/base/result.h"
#include "shared/base/time.h"

namespace fairway::cli {

// A time of day already past today means tomorrow, as in Slurm. Errors name the value.
Result<Time> parse_begin_time(std::string_view text, Time now);

}  // namespace fairway::cli
