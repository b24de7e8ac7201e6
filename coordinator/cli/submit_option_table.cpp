// The option table; see submit_option_table.h.
#include "coordinator/cli/submit_option_table.h"

namespace fairway::cli::sbatch_options {
namespace {

constexpr std::string_view kNoMemory = "memory per GPU is not supported yet";

constexpr OptionSpec kOptions[] = {
    {Opt::kPartition, 'p', "partition", Value::kRequired, false},
    {Opt::kAccount, 'A', "account", Value::kRequired, false},
    {Opt::kQos, 'q', "qos", Value::kRequired, false},
    {Opt::kNtasks, 'n', "ntasks", Value::kRequired, false},
    {Opt::kNodes, 'N', "nodes", Value::kRequired, false},
    {Opt::kCpusPerTask, 'c', "cpus-per-task", Value::kRequired, false},
    {Opt::kNtasksPerNode, '\0', "ntasks-per-node", Value::kRequired, false},
    {Opt::kGpus, 'G', "gpus", Value::kRequired, false},
    {Opt::kGpusPerNode, '\0', "gpus-per-node", Value::kRequired, false},
    {Opt::kGres, '\0', "gres", Value::kRequired, false},
    {Opt::kTime, 't', "time", Value::kRequired, false},
    {Opt::kJobName, 'J', "job-name", Value::kRequired, false},
    {Opt::kOutput, 'o', "output", Value::kRequired, false},
    {Opt::kError, 'e', "error", Value::kRequired, false},
    {Opt::kDefaultOutput, '\0', "default-output", Value::kRequired, true},
    {Opt::kNoRequeue, '\0', "no-requeue", Value::kNone, false},
    {Opt::kRequeue, '\0', "requeue", Value::kNone, false},
    {Opt::kHold, 'H', "hold", Value::kNone, false},
    {Opt::kChdir, 'D', "chdir", Value::kRequired, false},
    {Opt::kMem, '\0', "mem", Value::kRequired, false},
    {Opt::kMemPerCpu, '\0', "mem-per-cpu", Value::kRequired, false},
    {Opt::kComment, '\0', "comment", Value::kRequired, false},
    {Opt::kReservation, '\0', "reservation", Value::kRequired, false},
    {Opt::kWait, 'W', "wait", Value::kNone, false},
    {Opt::kOpenMode, '\0', "open-mode", Value::kRequired, false},
    {Opt::kExport, '\0', "export", Value::kRequired, false},
    {Opt::kDependency, 'd', "dependency", Value::kRequired, false},
    {Opt::kKillOnInvalidDep, '\0', "kill-on-invalid-dep", Value::kRequired, false},
    {Opt::kBegin, 'b', "begin", Value::kRequired, false},
    {Opt::kNice, '\0', "nice", Value::kOptional, false},
    {Opt::kWarnIgnored, '\0', "mem-per-gpu", Value::kRequired, false, kNoMemory},
    {Opt::kExclusive, '\0', "exclusive", Value::kOptional, false},
    {Opt::kNodelist, 'w', "nodelist", Value::kRequired, false},
    {Opt::kExclude, 'x', "exclude", Value::kRequired, false},
    {Opt::kConstraint, 'C', "constraint", Value::kRequired, false},
    {Opt::kSignal, '\0', "signal", Value::kRequired, false},
    {Opt::kMailType, '\0', "mail-type", Value::kRequired, false},
    {Opt::kMailUser, '\0', "mail-user", Value::kRequired, false},
    {Opt::kWarnIgnored, '\0', "tmp", Value::kRequired, false, "local disk is not scheduled"},
    {Opt::kWarnIgnored, 'i', "input", Value::kRequired, false, "batch jobs read no input yet"},
    {Opt::kSilent, '\0', "get-user-env", Value::kOptional, false},
    {Opt::kSilent, '\0', "propagate", Value::kOptional, false},
    {Opt::kSilent, '\0', "profile", Value::kRequired, false},
    {Opt::kSilent, '\0', "acctg-freq", Value::kRequired, false},
    {Opt::kSilent, 'm', "distribution", Value::kRequired, false},
    {Opt::kSilent, '\0', "hint", Value::kRequired, false},
    {Opt::kSilent, '\0', "cpu-freq", Value::kRequired, false},
    {Opt::kSilent, '\0', "threads-per-core", Value::kRequired, false},
    {Opt::kSilent, '\0', "mincpus", Value::kRequired, false},
    {Opt::kSilent, 'k', "no-kill", Value::kOptional, false},
    {Opt::kSilent, 's', "oversubscribe", Value::kNone, false},
    {Opt::kSilent, 'Q', "quiet", Value::kNone, false},
    {Opt::kSilent, '\0', "ignore-pbs", Value::kNone, false},
    {Opt::kSilent, '\0', "wckey", Value::kRequired, false},
    {Opt::kSilent, '\0', "gpu-bind", Value::kRequired, false},
    {Opt::kSilent, '\0', "cpu-bind", Value::kRequired, false},
    {Opt::kSilent, '\0', "mem-bind", Value::kRequired, false},
    {Opt::kSilent, '\0', "spread-job", Value::kNone, false},
    {Opt::kSilent, '\0', "use-min-nodes", Value::kNone, false},
    {Opt::kArray, 'a', "array", Value::kRequired, false},
    {Opt::kRefused, 'L', "licenses", Value::kRequired, false, "licenses are not scheduled yet"},
    {Opt::kRefused, 'M', "clusters", Value::kRequired, false, "Fairway schedules one cluster per coordinator"},
    {Opt::kRefused, '\0', "uid", Value::kRequired, false, "jobs run as the user who submits them"},
    {Opt::kRefused, '\0', "gid", Value::kRequired, false, "jobs run with the submitter's group"},
    {Opt::kRefused, '\0', "deadline", Value::kRequired, false, "deadlines are not supported yet"},
    {Opt::kTestOnly, '\0', "test-only", Value::kNone, false},
    {Opt::kWrap, '\0', "wrap", Value::kRequired, true},
    {Opt::kParsable, '\0', "parsable", Value::kNone, true},
    {Opt::kLabel, 'l', "label", Value::kNone, true},
    {Opt::kJobId, '\0', "jobid", Value::kRequired, true},
    {Opt::kPty, '\0', "pty", Value::kNone, true},
    {Opt::kJson, '\0', "json", Value::kNone, true},
    {Opt::kCoordinator, '\0', "coordinator", Value::kRequired, true},
    {Opt::kConfig, '\0', "config", Value::kRequired, true},
    {Opt::kHelp, 'h', "help", Value::kNone, true},
};

}  // namespace

const OptionSpec* find_long(std::string_view name) {
  for (const auto& o : kOptions) {
    if (o.long_name == name) return &o;
  }
  return nullptr;
}

const OptionSpec* find_short(char c) {
  for (const auto& o : kOptions) {
    if (o.short_name == c) return &o;
  }
  return nullptr;
}

}  // namespace fairway::cli::sbatch_options
