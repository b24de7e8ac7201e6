// A batch job's script: its #! interpreter, and the copy the agent writes into its spool
// dir (mode 0700, owned by the job's user) for that interpreter to read. Thread-safe.
#pragma once

#include <sys/types.h>
#include <string>
#include <string_view>
#include <vector>

#include "shared/base/ids.h"
#include "shared/base/result.h"

namespace fairway::agent {

// The interpreter and its optional single argument from the "#!" line, as the kernel
// splits it; {"/bin/sh"} when the script has no "#!" line.
std::vector<std::string> script_interpreter(std::string_view script);

// <spool_dir>/fairway-job-<job>.sh
std::string job_script_path(std::string_view spool_dir, JobId job);

// Writes the script (replacing a stale copy from an earlier run of the same job) with
// mode 0700 and the given owner; returns its path. Errors name the path.
Result<std::string> write_job_script(std::string_view spool_dir, JobId job, std::string_view script,
                                     uid_t owner, gid_t group);

// Removes the job's script once it has ended; a missing file is not an error.
Status remove_job_script(std::string_view spool_dir, JobId job);

}  // namespace fairway::agent
