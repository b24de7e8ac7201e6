// `fairway history`: finished jobs from the coordinator's store, sacct-like (state, exit
// code, times, cores, nodes, peak memory, CPU time), as a table, `|`-separated fields
// (-P) or JSON. Pure apart from the transport and streams it is given.
#pragma once

#include <string>

#include "coordinator/cli/commands.h"

namespace fairway::cli {

struct HistoryOptions {
  std::string user, account, partition, states, jobs;
  // -S/-E: YYYY-MM-DD[THH:MM[:SS]] or now-N[units]. Without -S (and -j): since midnight.
  std::string start, end;
  bool parsable = false;   // -P: "|" between fields, as sacct --parsable2
  bool json = false;
};

// -S/-E values: a local date and time, or now-N with seconds/minutes/hours/days/weeks.
Result<Time> parse_history_time(std::string_view option, std::string_view text, Time now);

int run_history(const HistoryOptions& o, Time now, const Transport& transport, const Output& io);

std::string render_history(const wire::JobQueryReply& reply, bool parsable);

}  // namespace fairway::cli
