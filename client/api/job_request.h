// Turns `fairway submit` options and a job script into the wire SubmitRequest: directive
// merging, sbatch's task/CPU/GPU arithmetic, working directory. Pure and thread-safe.
#pragma once

#include <optional>

#include <string>
#include <string_view>
#include <vector>

#include "client/api/submit_options.h"
#include "shared/base/result.h"
#include "shared/base/time.h"
#include "shared/model/resources.h"
#include "shared/wire/messages.h"

namespace fairway::cli {

// What the submitting process knows about itself; gathered by the caller.
struct SubmitContext {
  std::string user;
  std::string cwd;                // absolute
  std::vector<wire::EnvVar> env;  // the whole environment, as sbatch --export=ALL
  std::string client_token;
  Time now;           // for --begin's relative and local times
  std::string host;   // SLURM_SUBMIT_HOST
  std::string umask;  // SLURM_UMASK ("0022"): the job's files get the submitter's modes
  // The submitter's scheduling priority (nice), which sbatch passes on as SLURM_PRIO_PROCESS.
  std::optional<std::int32_t> priority;
};

struct BuiltSubmission {
  wire::SubmitRequest request;
  std::vector<std::string> warnings;  // for stderr
  bool wait = false;                  // -W/--wait, from the command line or a directive
  bool quiet = false;                 // -Q: no job id printed, as sbatch -Q
  // --dependency's array tasks ("afterok:12_3"): resolve_task_dependencies fills them in.
  std::vector<DependencyTaskRef> dependency_tasks;
};

// Without -N: cores = ntasks x cpus-per-task spread freely (nodes = 0), GPUs in total.
// With -N: per node, cores = (ntasks-per-node or ceil(ntasks / N)) x cpus-per-task and
// GPUs from --gpus-per-node, else --gres, else --gpus / N (which must divide evenly).
// --cpus-per-gpu raises the cores to that many per GPU. Takes resolve_gpu_relative's output.
Result<ResourceRequest> map_resources(const SubmitOptions& o);

// -N MIN-MAX becomes one count (one node per task within the range, else MIN), -w with
// several nodes and no -N asks for all of them, and -N above -n comes down to -n with
// Slurm's warning, as sbatch does.
void resolve_node_count(SubmitOptions& o);

// The options with --gpus-per-task turned into --gpus (--gpus-per-node with -N) and
// --ntasks-per-gpu into --ntasks; once only (a second call refuses --gpus-per-task + --gpus).
Result<SubmitOptions> resolve_gpu_relative(SubmitOptions o);

// `script_text` is the script's content (ignored with --wrap); directives in it are
// overridden by the command line. Errors name the script line, option and value.
Result<BuiltSubmission> build_submission(const SubmitCommand& cmd, std::string_view script_text,
                                         const SubmitContext& ctx);

}  // namespace fairway::cli
