// `fairway alloc` (salloc): waits for an interactive allocation, runs a command or shell on
// this host with the allocation's SLURM_* environment, and ends the allocation after it.
// Forks and waits for a child, handles SIGINT; not thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "client/api/job_request.h"
#include "client/api/submit_options.h"
#include "client/fairway/commands.h"

namespace fairway::cli {

// `args`: submit options, then COMMAND and its arguments (none: $SHELL, else /bin/sh).
// Exit: the command's code (128+N when a signal N ended it); 1 when the allocation was
// refused, ended before it started, or the coordinator was lost; 2 for bad options.
int run_alloc(const std::vector<std::string>& args, const SubmitContext& ctx, const Transport& transport,
              const Output& io, std::chrono::milliseconds poll = std::chrono::milliseconds(200));

// Submits `cmd`'s options as an interactive allocation, waits until it runs, calls `body`
// with it and ends it: alloc's command, or run's step outside a job. Returns body's code,
// or 1 when the allocation was refused, ended first or interrupted. As Slurm's: an
// allocation not granted within a second is "queued and waiting for resources", then "has
// been allocated resources"; `announce` (salloc) also says "Granted job allocation N" and
// "Relinquishing job allocation N", and "Pending job allocation N" when it waits. Unless
// -J names it, the job is named after `command_name`'s file name; it ends COMPLETED or
// FAILED with body's code.
int with_allocation(SubmitCommand cmd, const std::string& command_name, const SubmitContext& ctx,
                    const Transport& transport, const Output& io, std::chrono::milliseconds poll,
                    bool announce, const std::function<int(const wire::JobView&)>& body);

}  // namespace fairway::cli
