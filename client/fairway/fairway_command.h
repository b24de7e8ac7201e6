// The `fairway` command line as a function: the fairway binary is this over its argv, and
// the Slurm commands not yet read into typed options (sbatch, sprio, ...; slurm_commands.h)
// call it with translated arguments. Not thread-safe (signal handlers, stdin).
#pragma once

#include <string>
#include <vector>

#include "client/fairway/commands.h"

namespace fairway::cli {

// `args`: what follows "fairway" on its command line. Returns the exit code.
int run_fairway(std::vector<std::string> args, const Output& io);

}  // namespace fairway::cli
