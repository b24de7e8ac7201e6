// squeue --json in Slurm 22.05's shape (openapi v0.0.38: meta, errors, jobs with their 110
// keys), for the tools that parse it. Fields Fairway has no notion of carry the value Slurm
// gives a job that does not use them. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "client/views/slurm/slurm_job_view.h"
#include "shared/wire/messages.h"

namespace fairway::cli {

// A gid's name in the system's group database (the caller looks it up; this is pure).
using GroupNameFn = std::function<std::string(std::uint32_t gid)>;

// `jobs` as squeue --json prints them (to_slurm_view already applied: held jobs pending);
// `cluster` is [cluster] name; `nodes` give running jobs' cores their sockets.
std::string squeue_json(const wire::JobQueryReply& jobs, const std::string& cluster,
                        const std::vector<wire::NodeView>& nodes, const GroupNameFn& group_name);

// sacct --json (openapi dbv0.0.38): `jobs` as sacct's table shows them (to_slurm_view
// applied), each with its lines from step_lines (taken before): its batch script, its steps.
// Exit codes are the jobs' own: Slurm 22.05 writes SUCCESS 0 for a failed job here, a
// bug not copied. Per-step usage statistics Fairway does not gather are empty lists.
std::string sacct_json(const std::vector<wire::JobView>& jobs,
                       const std::vector<std::vector<StepLine>>& steps, const std::string& cluster,
                       const GroupNameFn& group_name);

// sinfo --json (openapi v0.0.38): every node's 48 keys. A drained node is "idle" (or
// "mixed", "allocated" while jobs finish) with the flag DRAIN, as Slurm reports it; what
// Fairway does not know of a node (its OS, load, boot time) is Slurm's value for unknown.
std::string sinfo_json(const wire::NodeQueryReply& nodes);

}  // namespace fairway::cli
