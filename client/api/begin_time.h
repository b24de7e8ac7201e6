// sbatch's --begin forms read into an absolute time: "now+1hour", "16:00", "2026-12-01",
// "2026-12-01T08:30:00", "midnight", "noon", "teatime", "today", "tomorrow". Clock-free:
// `now` comes from the caller; local times use the process's time zone (TZ).
#pragma once

#include <cstdint>
#include <string_view>

#include "shared/base/result.h"
#include "shared/base/time.h"

namespace fairway::cli {

// A time of day already past today means tomorrow, as in Slurm. Errors name the value.
Result<Time> parse_begin_time(std::string_view text, Time now);

// The `now` to resolve --begin against: the clock's reading rounded up to the next whole
// second, so that now+20 is never less than 20 s after the submission (a job starts at or
// after its begin time; a truncated now could start it 19.x s after).
Time begin_reference(std::int64_t unix_milliseconds);

}  // namespace fairway::cli
