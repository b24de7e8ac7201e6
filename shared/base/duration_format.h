// Parsing and printing of human time spans as users and admins write them:
// Slurm walltimes ("90", "1:30:00", "2-12:00:00") and unit suffixes ("30s", "2h", "50d").
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "shared/base/result.h"
#include "shared/base/time.h"

namespace fairway {

// Slurm's --time grammar: "M", "M:S", "H:M:S", "D-H", "D-H:M", "D-H:M:S";
// also "UNLIMITED"/"infinite". A bare number means minutes, as in sbatch.
Result<Duration> parse_walltime(std::string_view text);

// Config spans: a number with a unit suffix s/m/h/d/w ("14d", "8w"), or a walltime.
Result<Duration> parse_span(std::string_view text);

// "D-HH:MM:SS" (days omitted when zero), or "UNLIMITED".
std::string format_walltime(Duration d);

// "5 s", "250 ms": how timeouts read in messages.
std::string describe_timeout(std::chrono::milliseconds timeout);

}  // namespace fairway
