// `fairway run` (srun): runs COMMAND as a step of a job on every node of it, with each
// task's output forwarded here (labelled with --label), stdin to task 0, Ctrl-C to the
// tasks, and the worst task's exit as ours. Outside a job it first gets an allocation.
// Blocks on its own sockets and handles SIGINT: one per process.
#pragma once

#include <string>
#include <vector>

#include "client/api/job_request.h"
#include "client/fairway/commands.h"

namespace fairway::cli {

struct StepSettings {
  // The address relays reach this host at (a numeric address).
  std::string listen_host = "127.0.0.1";
  // How long every node's relay has to call in before the step is given up.
  int start_timeout_ms = 60000;
  // srun -K: the first task that fails (a non-zero exit or a signal) kills the step's others.
  bool kill_on_bad_exit = false;
};

// `args`: run and submit options (-n, -N, -l, --jobid, ...), then COMMAND and its
// arguments. The job is --jobid, else $FAIRWAY_JOB_ID or $SLURM_JOB_ID, else a new
// allocation made with the options. Exit: the worst task's code (128+N for signal N),
// 1 when the step could not run, 2 for bad options.
int run_step_command(const std::vector<std::string>& args, const SubmitContext& ctx,
                     const Transport& transport, const Output& io, const StepSettings& settings);

std::string run_usage();

}  // namespace fairway::cli
