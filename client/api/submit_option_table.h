// sbatch's and srun's options as Fairway reads them: each one's names, whether it takes a
// value, and what happens to it (done, accepted with a warning, ignored, or refused). Pure data.
#pragma once

#include <cstdint>
#include <string_view>

namespace fairway::cli::sbatch_options {

enum class Opt {
  kPartition,
  kAccount,
  kQos,
  kNtasks,
  kNodes,
  kCpusPerTask,
  kNtasksPerNode,
  kGpus,
  kGpusPerNode,
  kGres,
  kTime,
  kJobName,
  kOutput,
  kError,
  kNoRequeue,
  kRequeue,
  kHold,
  kChdir,
  kMem,
  kMemPerCpu,
  kWait,
  kTestOnly,
  kSignal,
  kMailType,
  kMailUser,
  kExclusive,
  kNodelist,
  kExclude,
  kConstraint,
  kComment,
  kReservation,
  kOpenMode,
  kExport,
  kDependency,
  kKillOnInvalidDep,
  kBegin,
  kNice,
  kArray,
  kGpusPerTask,
  kCpusPerGpu,
  kNtasksPerGpu,
  kMemPerGpu,
  kMinCpus,
  kQuiet,
  // Accepted; what they ask is not done yet, and the job is still right without it.
  kWarnIgnored,
  // Accepted and meaningless here (accounting, tuning and verbosity knobs).
  kSilent,
  // Known, but running the job without it would be wrong: refused with the reason.
  kRefused,
  // Command line only:
  kWrap,
  kParsable,
  kJson,
  kCoordinator,
  kConfig,
  kHelp,
  // fairway run only (srun): refused by submit and alloc.
  kLabel,
  kJobId,
  kPty,
  kKillOnBadExit,
  kMpi,
  // srun's, read by fairway run; accepted and meaningless for a batch job as a whole.
  kCpuBind,
  kDistribution,
  kExact,
};

enum class Value : std::uint8_t { kNone, kRequired, kOptional /* only as --opt=value */ };

struct OptionSpec {
  Opt opt;
  char short_name;  // '\0': none
  std::string_view long_name;
  Value value;
  bool command_line_only;
  std::string_view why = {};  // kWarnIgnored / kRefused: what the user is told
  // kSilent / kWarnIgnored: the variable sbatch sets in the job from it, as Slurm's does
  // ("SLURM_HINT": the option's value; "SLURM_GET_USER_ENV=1": that value).
  std::string_view variable = {};
};

// The option of that long name (without "--") or short letter; nullptr: unknown.
const OptionSpec* find_long(std::string_view name);
const OptionSpec* find_short(char c);

}  // namespace fairway::cli::sbatch_options
