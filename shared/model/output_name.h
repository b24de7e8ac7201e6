// Output file names from Slurm's patterns (%j, %A, %a, %u, %x, %N, ...): what the agent
// opens for a job and what scontrol shows for it. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "shared/base/ids.h"

namespace fairway {

// Where a batch job's output goes when neither -o nor its script names a file.
inline constexpr std::string_view kDefaultOutputPattern = "fairway-%j.out";

// What an output file name pattern may refer to.
struct OutputNameFields {
  JobId job;
  std::string_view user;        // %u
  std::string_view job_name;    // %x
  std::string_view node;        // %N: the node the batch script runs on
  JobId array_job;              // %A for an array's task (0: not one, %A is the job id)
  std::int32_t array_task = 0;  // %a, when array_job is set
};

// `pattern` with Slurm's batch-step substitutions: %j %J (the job id), %A (the array's id,
// else the job's), %a (the task index; 4294967294, Slurm's "no task", outside an array), %s ("batch"),
// %t and %n (0), %u, %x, %N, %%; a width between % and a number letter zero-pads it
// ("%5j" -> 00042). Unknown letters stay as written, as Slurm leaves them. Made absolute
// against the working dir when relative; an empty pattern gives `fallback`.
// kJobOnly: what scontrol shows before the batch step runs, as Slurm's does: the job's own
// letters (%j %J %A %a %u %x) expanded; the node's and task's (%N %n %t %s) and %% as written.
enum class OutputExpansion : std::uint8_t { kBatchStep, kJobOnly };
std::string expand_output_path(std::string_view pattern, const OutputNameFields& fields,
                               std::string_view working_dir, std::string_view fallback,
                               OutputExpansion expansion = OutputExpansion::kBatchStep);

}  // namespace fairway
