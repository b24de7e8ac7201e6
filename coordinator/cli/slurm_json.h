// squeue --json in Slurm 22.05's shape (openapi v0.0.38: meta, errors, jobs with their 110
// keys), for the tools that parse it. Fields Fairway has no notion of carry the value Slurm
// gives a job that does not use them. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "shared/wire/messages.h"

namespace fairway::cli {

// A gid's name in the system's group database (the caller looks it up; this is pure).
using GroupNameFn = std::function<std::string(std::uint32_t gid)>;

// `jobs` as squeue --json prints them (to_slurm_view already applied: held jobs pending);
// `cluster` is [cluster] name; `nodes` give running jobs' cores their sockets.
std::string squeue_json(const wire::JobQueryReply& jobs, const std::string& cluster,
                        const std::vector<wire::NodeView>& nodes, const GroupNameFn& group_name);

}  // namespace fairway::cli
