// The sbatch-style submission options, read from directive words or the command line with
// one grammar (--opt=value, --opt value, -p value, -pvalue). Pure and thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client/api/option_values.h"
#include "shared/base/result.h"
#include "shared/base/time.h"
#include "shared/model/dependency_syntax.h"
#include "shared/model/job_spec.h"

namespace fairway::cli {

// A GPU count with an optional model, as in --gres=gpu:a100:2 or --gpus=a100:2.
struct GpuCount {
  std::string type;  // empty: any model
  std::int32_t count = 0;
  bool operator==(const GpuCount&) const = default;
};

// Every field is unset until an option sets it, so that command-line values can be laid
// over directive values field by field.
struct SubmitOptions {
  std::optional<std::string> partition, account, qos, job_name, output, error, chdir;
  // The output file pattern when neither -o nor the script names one: no option sets it,
  // sbatch does (Slurm's "slurm-%j.out"); for an array, its %j reads %A_%a, as Slurm's
  // default for arrays. Unset: the agent's fairway-%j.out.
  std::optional<std::string> default_output;
  std::optional<std::int32_t> ntasks, nodes, cpus_per_task, ntasks_per_node;
  // -N MIN-MAX: the most nodes (nodes holds the least); resolve_node_count picks one.
  std::optional<std::int32_t> nodes_max;
  std::optional<GpuCount> gpus, gpus_per_node, gres;
  std::optional<Duration> time;
  std::optional<bool> requeue;
  std::optional<bool> hold;
  std::optional<std::string> comment;
  std::optional<std::string> reservation;
  std::optional<bool> open_append;
  std::optional<std::string> export_spec;  // --export, applied to the environment later
  std::optional<DependencyOption> dependency;
  std::optional<bool> kill_on_invalid_dep;
  std::optional<std::string> begin;  // --begin as written; resolved against the clock later
  std::optional<std::int32_t> nice;
  std::optional<ArraySpec> array;  // --array=1-100%10
  std::optional<bool> wait;        // -W/--wait: the CLI returns when the job ends
  std::optional<bool> quiet;       // -Q: sbatch prints no job id
  std::optional<bool> test_only;   // --test-only: when it would start; nothing is queued
  std::optional<WarningSignal> signal;
  std::optional<std::uint8_t> mail_events;  // JobMailEvent bits
  std::optional<std::string> mail_user;
  std::optional<bool> exclusive;
  std::optional<std::vector<std::string>> nodelist, exclude;  // expanded host lists
  std::optional<std::string> constraint;
  std::optional<std::int64_t> mem_per_node_mb, mem_per_cpu_mb;  // --mem, --mem-per-cpu (MiB)
  // Slurm's GPU-relative requests: GPUs per task, cores and memory (MiB) per GPU, tasks
  // per GPU; map_resources turns them into the job's GPUs, cores, memory and tasks.
  std::optional<GpuCount> gpus_per_task;
  std::optional<std::int32_t> cpus_per_gpu, ntasks_per_gpu;
  std::optional<std::int32_t> mincpus;  // --mincpus: at least that many cores on each node
  std::optional<std::int64_t> mem_per_gpu_mb;
  // What sbatch passes on to the job from options the scheduler does not use: the
  // variable and its value (SLURM_HINT=nomultithread), the later one winning.
  std::vector<std::pair<std::string, std::string>> passed_on;
  std::optional<std::string> distribution;     // -m/--distribution as written
  std::optional<std::string> dependency_text;  // --dependency as written: SLURM_JOB_DEPENDENCY
  std::vector<std::string> warnings;           // accepted but ignored options, for stderr

  // Fields set in `over` replace ours (the command line overrides directives).
  void overlay(const SubmitOptions& over);
};

// What `fairway submit` was given besides the job options.
struct SubmitCommand {
  SubmitOptions options;
  std::optional<std::string> wrap;
  bool parsable = false;
  bool json = false;  // {"job": ID, "warnings": [...]} on stdout
  bool help = false;
  // fairway run (srun): each output line prefixed with its task's rank; the job to run in.
  bool label = false;
  std::optional<std::string> jobid;
  bool pty = false;  // task 0 on a pseudo-terminal (srun --pty)
  // srun's: a failing task kills the step (-K); the PMI the tasks get (--mpi); how tasks
  // are bound and laid out (--cpu-bind, -m). Checked by fairway run; submit ignores them.
  std::optional<bool> kill_on_bad_exit;
  std::optional<std::string> mpi;
  std::optional<std::string> cpu_bind;
  std::optional<std::string> distribution;
  bool exact = false;  // srun --exact: the step takes only the cores it asks for, its own
  bool run_only() const { return label || jobid || pty; }
  std::optional<std::string> coordinator;
  std::optional<std::string> config;
  std::string script_path;               // empty with --wrap
  std::vector<std::string> script_args;  // after the script path
};

// Directive words: job options; an unknown one is skipped with a warning (with the rest of
// its line). Errors name the option and value; the caller adds the line number.
Status parse_directive_words(const std::vector<std::string>& words, SubmitOptions& out);

// `fairway submit` arguments (after "submit"): options up to the script path, then the
// script's own arguments. Also takes --wrap, --parsable, --coordinator, --config, --help.
// command_optional: no script is fine (fairway alloc runs the user's shell then).
Result<SubmitCommand> parse_submit_command_line(const std::vector<std::string>& args,
                                                bool command_optional = false);

// The usage text for `fairway submit --help`.
std::string submit_usage();

}  // namespace fairway::cli
