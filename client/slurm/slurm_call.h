// Runs a Slurm command's typed call (slurm_commands.h) against the coordinator: the same
// command functions and views fairway's own subcommands use, with no command line between.
// Not thread-safe (the commands' signal handlers, stdin).
#pragma once

#include "client/slurm/slurm_commands.h"

namespace fairway::cli {

// The coordinator is found as fairway finds it without --coordinator or --config
// ($FAIRWAY_COORDINATOR, $FAIRWAY_CONF, the default config). Returns the exit code.
int run_slurm_call(const SlurmCall& call, const Output& io);

}  // namespace fairway::cli
