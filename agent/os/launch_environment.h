// What a job sees when it starts: its environment (the submitter's plus FAIRWAY_* and
// SLURM_* variables) and the resolved paths of its output files. Pure functions, thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "agent/os/job_user.h"
#include "agent/os/launch_request.h"
#include "shared/base/result.h"
#include "shared/model/output_name.h"
#include "shared/model/task_distribution.h"

namespace fairway::agent {

struct OutputPaths {
  std::string stdout_path;
  std::string stderr_path;  // equal to stdout_path when both go to one file
  bool shared() const { return stdout_path == stderr_path; }
};

// stdout defaults to <working_dir>/fairway-<job>.out; stderr defaults to the stdout file.
// Errors name the field: working_dir must be absolute.
Result<OutputPaths> resolve_output_paths(const LaunchRequest& request);

// "NAME=value" strings for execve: the job's env in order (later entries win), PATH/HOME/
// USER/LOGNAME filled in when absent, then the FAIRWAY_* and SLURM_* variables, which
// override anything the submitter carried over (e.g. an enclosing job's SLURM_JOB_ID).
// Errors name a bad variable (empty name, '=' or a NUL byte in it).
Result<std::vector<std::string>> build_job_environment(const LaunchRequest& request, const JobUser& user);

// "0,1,5": the form of FAIRWAY_CPUS and FAIRWAY_GPUS.
std::string comma_list(const std::vector<std::int32_t>& values);

}  // namespace fairway::agent
