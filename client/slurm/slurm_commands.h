// Slurm's command names on Fairway (sbatch, squeue, scancel, sacct, sinfo, scontrol, srun,
// salloc, sprio, sshare, sdiag, sacctmgr): each invocation read into the typed options of the
// client command that does the same (sbatch: fairway submit's command, parsed by the one
// sbatch grammar), or for srun and salloc into the `fairway` command line, whose COMMAND
// follows the options; so that both run the same client code.
// Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "client/api/submit_options.h"
#include "client/fairway/commands.h"
#include "client/fairway/history_command.h"
#include "client/fairway/priority_command.h"
#include "client/fairway/report_commands.h"
#include "client/views/slurm/slurm_version.h"
#include "shared/base/result.h"

namespace fairway::cli {

// What a translation needs from the caller's environment.
struct SlurmInvocation {
  std::string user;  // $USER of the caller: squeue --me
  // The SBATCH_* / SALLOC_* / SLURM_* input variables that set options (sbatch reads
  // SBATCH_PARTITION as -p, ...), as NAME=value pairs.
  std::vector<std::pair<std::string, std::string>> env;
};

// squeue and scontrol show step: fairway queue's options, listed again every
// `iterate_s` seconds when not 0 (squeue -i).
struct SlurmQueueCall {
  QueueOptions options;
  int iterate_s = 0;
};
// sacct: fairway history's options (the live jobs too, sacct's table).
struct SlurmHistoryCall {
  HistoryOptions options;
};
// scancel: fairway cancel's options (a job that is gone is no error unless -v).
struct SlurmCancelCall {
  ControlOptions options;
};
// sinfo: fairway nodes' %-field layout, or with `json` (and no -o) sinfo --json's shape of
// `names` (or every node).
struct SlurmNodesCall {
  NodeLayoutOptions layout;
  std::vector<std::string> names;
  bool json = false;
};
// scontrol show job|node|partition: scontrol's Key=Value layout (fairway's JSON with --json)
// of one job or node (none: every one), or of these partitions; show reservation: fairway's
// layout of these reservations (none: every one); show config: scontrol's layout.
struct SlurmShowCall {
  enum class What : std::uint8_t { kJob, kNode, kPartition, kReservation, kConfig };
  What what = What::kJob;
  std::vector<std::string> names;
  bool json = false;
};
// scontrol hold|uhold|release|requeue|requeuehold: fairway hold's, release's or requeue's
// options (the ids, --json).
struct SlurmControlCall {
  wire::JobAction action = wire::JobAction::kHold;
  ControlOptions options;
};
// scontrol update JobId=ID KEY=VALUE...: fairway update's words (job ID KEY=VALUE...).
struct SlurmUpdateCall {
  std::vector<std::string> words;
  bool json = false;
};
// scontrol update NodeName=N State=DRAIN|DOWN Reason=R, or State=RESUME: fairway drain or
// resume of these nodes.
struct SlurmNodeControlCall {
  wire::NodeAction action = wire::NodeAction::kDrain;
  std::vector<std::string> nodes;
  std::string reason;
};
// sprio: fairway priority's options (sprio's table).
struct SlurmPriorityCall {
  PriorityOptions options;
};
// sshare (sshare's table) and sacctmgr list|show (sacctmgr's lists): fairway shares' options.
struct SlurmSharesCall {
  SharesOptions options;
};
// sdiag: fairway diag in sdiag's layout, or its JSON.
struct SlurmDiagCall {
  bool json = false;
};
// sbatch: fairway submit's command, its SBATCH_* variables read first, and a batch job's
// output in slurm-%j.out when neither the options nor the script name a file.
struct SlurmSubmitCall {
  SubmitCommand command;
};
// A Slurm command as a typed call of a client command (slurm_call.h runs it).
using SlurmCall = std::variant<SlurmQueueCall, SlurmHistoryCall, SlurmCancelCall, SlurmNodesCall,
                               SlurmShowCall, SlurmControlCall, SlurmUpdateCall, SlurmNodeControlCall,
                               SlurmPriorityCall, SlurmSharesCall, SlurmDiagCall, SlurmSubmitCall>;

// A translation: the typed `call`, the fairway arguments (srun, salloc), or
// `local_output` when the
// command is answered here (scontrol show hostnames needs no coordinator). `usage_error`:
// options that read but do not go together (given twice...), refused with exit 2 as
// fairway's own parser refuses them.
struct SlurmTranslation {
  std::vector<std::string> fairway_args = {};
  std::optional<std::string> local_output = std::nullopt;
  std::optional<SlurmCall> call = std::nullopt;
  std::optional<std::string> usage_error = std::nullopt;
  // fairway's --version among a scontrol command's words (scontrol hold 42 --version), which
  // fairway's parser answered before anything else: "fairway VERSION", exit 0.
  bool fairway_version = false;
};

// The Slurm commands this front-end answers to, as installed links name them.
const std::vector<std::string_view>& slurm_command_names();

// `command` (sbatch, squeue, ...) with its arguments. Errors name the option that Fairway
// cannot honour ("--clusters is not supported: one cluster only"); the caller prefixes
// them as Slurm does ("squeue: error: ").
Result<SlurmTranslation> translate_slurm_command(std::string_view command,
                                                 const std::vector<std::string>& args,
                                                 const SlurmInvocation& invocation);

// Slurm's words for an option it does not know, from a translation's refusal
// ("unrecognized option '--x'") or fairway's ("unknown option \"--x\""): getopt's line, then
// "Try \"squeue --help\" ..." (sacct has no such line); nullopt for any other message.
struct SlurmUsageError {
  std::string text;
  int exit_code = 1;  // 255 for sbatch, salloc and srun, as theirs
};
std::optional<SlurmUsageError> slurm_usage_error(std::string_view command, std::string_view message);

}  // namespace fairway::cli
