// `fairway priority` (sprio): every weighted term of every waiting job's priority, ranked as
// the scheduler considers them, so a user sees why another job goes first. Pure apart from
// the transport and streams it is given.
#pragma once

#include <string>

#include "client/fairway/commands.h"

namespace fairway::cli {

struct PriorityOptions {
  std::string user, partition, jobs;
  bool raw = false;  // -n: each term before its weight (minutes, factors, counts), as sprio -n
  bool json = false;
  // sprio's own table (slurm_report_views.h): --sprio, and -l and --noheader with it.
  bool sprio = false;
  bool long_format = false;
  bool noheader = false;
};

int run_priority(const PriorityOptions& o, const Transport& transport, const Output& io);

// JOBID PARTITION USER PRIORITY and one column per term (upper case, in the profile's
// order), highest priority first, ties by job id; `raw`: the terms before their weights.
std::string render_priority(const wire::JobQueryReply& reply, bool raw = false);
std::string priority_json(const wire::JobQueryReply& reply);

}  // namespace fairway::cli
