// The option table; see submit_option_table.h.
#include "client/api/submit_option_table.h"

namespace fairway::cli::sbatch_options {
namespace {

constexpr std::string_view kNoGpuShape =
    "GPUs are asked per job, per node or per task here (-G, --gpus-per-node, --gpus-per-task, --gres)";
constexpr std::string_view kNoNodeShape =
    "nodes are not chosen by their socket or core layout here (use -C with node features)";
constexpr std::string_view kNoHooks = "per-step prolog and epilog scripts are not run here";

constexpr OptionSpec kOptions[] = {
    {Opt::kPartition, 'p', "partition", Value::kRequired, false},
    {Opt::kAccount, 'A', "account", Value::kRequired, false},
    {Opt::kQos, 'q', "qos", Value::kRequired, false},
    {Opt::kNtasks, 'n', "ntasks", Value::kRequired, false},
    {Opt::kNodes, 'N', "nodes", Value::kRequired, false},
    {Opt::kCpusPerTask, 'c', "cpus-per-task", Value::kRequired, false},
    {Opt::kNtasksPerNode, '\0', "ntasks-per-node", Value::kRequired, false},
    {Opt::kNtasksPerNode, '\0', "tasks-per-node", Value::kRequired, false},  // Slurm's alias
    {Opt::kGpusPerTask, '\0', "gpus-per-task", Value::kRequired, false},
    {Opt::kCpusPerGpu, '\0', "cpus-per-gpu", Value::kRequired, false},
    {Opt::kNtasksPerGpu, '\0', "ntasks-per-gpu", Value::kRequired, false},
    {Opt::kMemPerGpu, '\0', "mem-per-gpu", Value::kRequired, false},
    {Opt::kGpus, 'G', "gpus", Value::kRequired, false},
    {Opt::kGpusPerNode, '\0', "gpus-per-node", Value::kRequired, false},
    {Opt::kGres, '\0', "gres", Value::kRequired, false},
    {Opt::kTime, 't', "time", Value::kRequired, false},
    {Opt::kJobName, 'J', "job-name", Value::kRequired, false},
    {Opt::kOutput, 'o', "output", Value::kRequired, false},
    {Opt::kError, 'e', "error", Value::kRequired, false},
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
    {Opt::kExclusive, '\0', "exclusive", Value::kOptional, false},
    {Opt::kNodelist, 'w', "nodelist", Value::kRequired, false},
    {Opt::kExclude, 'x', "exclude", Value::kRequired, false},
    {Opt::kConstraint, 'C', "constraint", Value::kRequired, false},
    {Opt::kSignal, '\0', "signal", Value::kRequired, false},
    {Opt::kMailType, '\0', "mail-type", Value::kRequired, false},
    {Opt::kMailUser, '\0', "mail-user", Value::kRequired, false},
    {Opt::kWarnIgnored, '\0', "tmp", Value::kRequired, false, "local disk is not scheduled"},
    {Opt::kWarnIgnored, 'i', "input", Value::kRequired, false, "batch jobs read no input yet"},
    {Opt::kSilent, '\0', "get-user-env", Value::kOptional, false, {}, "SLURM_GET_USER_ENV=1"},
    {Opt::kSilent, '\0', "propagate", Value::kOptional, false},
    {Opt::kSilent, '\0', "profile", Value::kRequired, false},
    {Opt::kSilent, '\0', "acctg-freq", Value::kRequired, false},
    {Opt::kDistribution, 'm', "distribution", Value::kRequired, false},
    {Opt::kSilent, '\0', "hint", Value::kRequired, false, {}, "SLURM_HINT"},
    {Opt::kSilent, '\0', "cpu-freq", Value::kRequired, false},
    {Opt::kSilent, '\0', "threads-per-core", Value::kRequired, false, {}, "SLURM_THREADS_PER_CORE"},
    {Opt::kMinCpus, '\0', "mincpus", Value::kRequired, false},
    {Opt::kSilent, 'k', "no-kill", Value::kOptional, false},
    {Opt::kSilent, 's', "oversubscribe", Value::kNone, false},
    {Opt::kQuiet, 'Q', "quiet", Value::kNone, false},
    {Opt::kSilent, 'v', "verbose", Value::kNone, false},
    {Opt::kSilent, '\0', "ignore-pbs", Value::kNone, false},
    {Opt::kSilent, '\0', "wckey", Value::kRequired, false},
    {Opt::kSilent, '\0', "gpu-bind", Value::kRequired, false},
    {Opt::kCpuBind, '\0', "cpu-bind", Value::kRequired, false},
    {Opt::kCpuBind, '\0', "cpu_bind", Value::kRequired, false},
    {Opt::kSilent, '\0', "mem-bind", Value::kRequired, false},
    {Opt::kSilent, '\0', "spread-job", Value::kNone, false},
    {Opt::kSilent, '\0', "use-min-nodes", Value::kNone, false},
    {Opt::kArray, 'a', "array", Value::kRequired, false},
    // Known to Slurm 22.05's sbatch, srun or salloc and not done here: what the job would
    // miss decides between a warning (still right without it) and a refusal (wrong).
    {Opt::kRefused, '\0', "gpus-per-socket", Value::kRequired, false, kNoGpuShape},
    {Opt::kRefused, 'B', "extra-node-info", Value::kRequired, false, kNoNodeShape},
    {Opt::kRefused, '\0', "sockets-per-node", Value::kRequired, false, kNoNodeShape},
    {Opt::kRefused, '\0', "cores-per-socket", Value::kRequired, false, kNoNodeShape},
    {Opt::kRefused, 'F', "nodefile", Value::kRequired, false, "name the nodes with -w/--nodelist"},
    {Opt::kRefused, 'O', "overcommit", Value::kNone, false, "every task gets cores of its own here"},
    {Opt::kRefused, '\0', "contiguous", Value::kNone, false, "nodes are not chosen to be contiguous"},
    {Opt::kRefused, '\0', "network", Value::kRequired, false, "network resources are not scheduled"},
    {Opt::kRefused, '\0', "bb", Value::kRequired, false, "burst buffers are not offered"},
    {Opt::kRefused, '\0', "bbf", Value::kRequired, false, "burst buffers are not offered"},
    {Opt::kRefused, '\0', "batch", Value::kRequired, false,
     "the batch step's node features are not chosen apart"},
    {Opt::kRefused, '\0', "cluster-constraint", Value::kRequired, false,
     "Fairway schedules one cluster per coordinator"},
    {Opt::kRefused, '\0', "container", Value::kRequired, false, "OCI containers are not run by the agents"},
    {Opt::kRefused, '\0', "export-file", Value::kRequired, false,
     "the job's environment comes from --export"},
    {Opt::kRefused, '\0', "priority", Value::kRequired, false,
     "an administrator sets a priority (fairway update job)"},
    {Opt::kRefused, '\0', "het-group", Value::kRequired, false, "heterogeneous jobs are not supported"},
    {Opt::kRefused, '\0', "multi-prog", Value::kNone, false, "every task runs the same command here"},
    {Opt::kRefused, '\0', "bcast", Value::kOptional, false, "the program is not copied to the nodes"},
    {Opt::kRefused, '\0', "bcast-exclude", Value::kRequired, false, "the program is not copied to the nodes"},
    {Opt::kRefused, '\0', "prolog", Value::kRequired, false, kNoHooks},
    {Opt::kRefused, '\0', "epilog", Value::kRequired, false, kNoHooks},
    {Opt::kRefused, '\0', "task-prolog", Value::kRequired, false, kNoHooks},
    {Opt::kRefused, '\0', "task-epilog", Value::kRequired, false, kNoHooks},
    {Opt::kRefused, 'r', "relative", Value::kRequired, false, "a step runs on every node of its job"},
    {Opt::kRefused, 'Z', "no-allocate", Value::kNone, false, "tasks run only inside an allocation"},
    {Opt::kRefused, 'I', "immediate", Value::kOptional, false, "a request waits for its resources here"},
    {Opt::kRefused, '\0', "resv-ports", Value::kOptional, false, "ports are not reserved"},
    {Opt::kRefused, '\0', "x11", Value::kOptional, false, "X11 is not forwarded"},
    {Opt::kRefused, '\0', "no-shell", Value::kNone, false, "an allocation lasts as long as its command"},
    {Opt::kWarnIgnored, '\0', "time-min", Value::kRequired, false, "the job runs with its whole --time"},
    {Opt::kWarnIgnored, '\0', "prefer", Value::kRequired, false, "preferred features are not weighed"},
    {Opt::kWarnIgnored, '\0', "switches", Value::kRequired, false, "switch topology is not weighed"},
    {Opt::kWarnIgnored, '\0', "reboot", Value::kNone, false, "nodes are not rebooted"},
    {Opt::kWarnIgnored, 'S', "core-spec", Value::kRequired, false, "no cores are set aside for the system"},
    {Opt::kWarnIgnored, '\0', "thread-spec", Value::kRequired, false,
     "no threads are set aside for the system"},
    {Opt::kWarnIgnored, '\0', "ntasks-per-core", Value::kRequired, false, "tasks are not spread by core",
     "SLURM_NTASKS_PER_CORE"},
    {Opt::kWarnIgnored, '\0', "ntasks-per-socket", Value::kRequired, false, "tasks are not spread by socket",
     "SLURM_NTASKS_PER_SOCKET"},
    {Opt::kWarnIgnored, '\0', "kill-command", Value::kOptional, false,
     "the command is not signalled at the time limit"},
    {Opt::kWarnIgnored, 'E', "preserve-env", Value::kNone, false, "counts come from the options given"},
    {Opt::kExact, '\0', "exact", Value::kNone, false},
    {Opt::kSilent, '\0', "overlap", Value::kNone, false},
    {Opt::kSilent, 'u', "unbuffered", Value::kNone, false},
    {Opt::kSilent, '\0', "accel-bind", Value::kRequired, false},
    {Opt::kSilent, '\0', "compress", Value::kOptional, false},
    {Opt::kSilent, 'X', "disable-status", Value::kNone, false},
    {Opt::kSilent, '\0', "msg-timeout", Value::kRequired, false},
    {Opt::kSilent, '\0', "quit-on-interrupt", Value::kNone, false},
    {Opt::kSilent, '\0', "send-libs", Value::kOptional, false},
    {Opt::kSilent, '\0', "slurmd-debug", Value::kRequired, false},
    {Opt::kSilent, 'T', "threads", Value::kRequired, false},
    {Opt::kSilent, '\0', "bell", Value::kNone, false},
    {Opt::kSilent, '\0', "no-bell", Value::kNone, false},
    {Opt::kSilent, '\0', "wait-all-nodes", Value::kRequired, false},
    {Opt::kSilent, '\0', "mcs-label", Value::kRequired, false},
    {Opt::kSilent, '\0', "power", Value::kRequired, false},
    {Opt::kSilent, '\0', "delay-boot", Value::kRequired, false},
    {Opt::kSilent, '\0', "gpu-freq", Value::kRequired, false},
    {Opt::kSilent, '\0', "gres-flags", Value::kRequired, false},

    {Opt::kRefused, 'L', "licenses", Value::kRequired, false, "licenses are not scheduled yet"},
    {Opt::kRefused, 'M', "clusters", Value::kRequired, false,
     "Fairway schedules one cluster per coordinator"},
    {Opt::kRefused, '\0', "uid", Value::kRequired, false, "jobs run as the user who submits them"},
    {Opt::kRefused, '\0', "gid", Value::kRequired, false, "jobs run with the submitter's group"},
    {Opt::kRefused, '\0', "deadline", Value::kRequired, false, "deadlines are not supported yet"},
    {Opt::kTestOnly, '\0', "test-only", Value::kNone, false},
    {Opt::kWrap, '\0', "wrap", Value::kRequired, true},
    {Opt::kParsable, '\0', "parsable", Value::kNone, true},
    {Opt::kLabel, 'l', "label", Value::kNone, true},
    {Opt::kJobId, '\0', "jobid", Value::kRequired, true},
    {Opt::kPty, '\0', "pty", Value::kNone, true},
    {Opt::kKillOnBadExit, 'K', "kill-on-bad-exit", Value::kOptional, false},
    {Opt::kMpi, '\0', "mpi", Value::kRequired, true},
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
