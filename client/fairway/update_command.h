// `fairway update job ID[,ID...] Key=Value...` (scontrol update job): the keys Slurm users
// know, checked here for form and by the coordinator for permission and policy. Pure apart
// from the transport and streams it is given.
#pragma once

#include <string>
#include <vector>

#include "client/fairway/commands.h"

namespace fairway::cli {

// Keys, any case: TimeLimit, Partition, QOS, Account, JobName (or Name), Comment, Nice,
// StartTime (or Begin). Errors name the word at fault.
Result<wire::JobUpdate> parse_job_update(const std::vector<std::string>& words, Time now);

// `json`: the per-job results as JSON (as cancel --json) instead of error lines.
int run_update(const std::vector<std::string>& words, Time now, bool json, const Transport& transport,
               const Output& io);

}  // namespace fairway::cli
