// `fairway queue -i SECONDS` (squeue -i): the listing again every SECONDS, each under the
// date it was taken, until interrupted or until the coordinator fails it. Reads the clock
// and sleeps; both command lines call it with their typed options.
#pragma once

#include "client/fairway/commands.h"

namespace fairway::cli {

// `seconds` 0: one listing, as run_queue.
int run_queue_iterating(const QueueOptions& o, int seconds, const Transport& transport, const Output& io);

}  // namespace fairway::cli
