// What a job sees when it starts: its environment (the submitter's plus FAIRWAY_* and
// SLURM_* variables) and the resolved paths of its output files. Pure functions, thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "agent/os/job_user.h"
#include "agent/os/launch_request.h"
#include "shared/model/task_distribution.h"
#include "shared/base/result.h"

namespace fairway::agent {

struct OutputPaths {
  std::string stdout_path;
  std::string stderr_path;  // equal to stdout_path when both go to one file
  bool shared() const { return stdout_path == stderr_path; }
};

// What an output file name pattern may refer to.
struct OutputNameFields {
  JobId job;
  std::string_view user;      // %u
  std::string_view job_name;  // %x
  std::string_view node;      // %N: the node the batch script runs on
  JobId array_job;            // %A for an array's task (0: not one, %A is the job id)
  std::int32_t array_task = 0;  // %a, when array_job is set
};

// `pattern` with Slurm's batch-step substitutions: %j %J (the job id), %A (the array's id,
// else the job's), %a (the task index; 4294967294, Slurm's "no task", outside an array), %s ("batch"),
// %t and %n (0), %u, %x, %N, %%; a width between % and a number letter zero-pads it
// ("%5j" -> 00042). Unknown letters stay as written, as Slurm leaves them. Made absolute
// against the working dir when relative; an empty pattern gives `fallback`.
std::string expand_output_path(std::string_view pattern, const OutputNameFields& fields,
                               std::string_view working_dir, std::string_view fallback);

// stdout defaults to <working_dir>/fairway-<job>.out; stderr defaults to the stdout file.
// Errors name the field: working_dir must be absolute.
Result<OutputPaths> resolve_output_paths(const LaunchRequest& request);

// "NAME=value" strings for execve: the job's env in order (later entries win), PATH/HOME/
// USER/LOGNAME filled in when absent, then the FAIRWAY_* and SLURM_* variables, which
// override anything the submitter carried over (e.g. an enclosing job's SLURM_JOB_ID).
// Errors name a bad variable (empty name, '=' or a NUL byte in it).
Result<std::vector<std::string>> build_job_environment(const LaunchRequest& request,
                                                       const JobUser& user);

// "0,1,5": the form of FAIRWAY_CPUS and FAIRWAY_GPUS.
std::string comma_list(const std::vector<std::int32_t>& values);

}  // namespace fairway::agent
