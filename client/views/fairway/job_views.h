// Human renderings of jobs: the `fairway queue` table and the `fairway show job` detail.
// Pure functions of the coordinator's reply (times in the local zone); thread-safe.
#pragma once

#include <string>

#include "shared/wire/messages.h"

namespace fairway::cli {

// JOBID PARTITION NAME USER ST TIME NODES NODELIST(REASON) START, one row per job.
std::string render_queue(const wire::JobQueryReply& reply);

// The id as users write it: "42", a task "42_7", an array's waiting tasks "42_[5-100%10]".
std::string job_id_text(const wire::JobView& job);

// Every field of the job, one "Key: value" per line; pending reasons with their sentences,
// the priority with each factor, the allocation per node, exit code and signal.
std::string render_job_detail(const wire::JobView& job, Time now);

// The pieces of a queue row, exposed for their tests.
std::string elapsed_text(const wire::JobView& job, Time now);
std::string nodelist_or_reason(const wire::JobView& job);
// Nodes it runs on, or asked for ("-" when any number will do).
std::string node_count_text(const wire::JobView& job);
// The nodes it holds in host list notation ("c[1-2]"); "" before it is placed.
std::string allocated_hostlist(const wire::JobView& job);
// The cores it holds, or the total it asks for while it waits.
std::int64_t job_cores(const wire::JobView& job);
// Its start, or the estimated one while it waits ("N/A": none known).
std::string start_text(const wire::JobView& job);
// Slurm's pn_min_cpus (scontrol MinCPUsNode, squeue %c): the CPUs each node must give,
// --ntasks-per-node x --cpus-per-task, at least one task's.
std::int32_t min_cpus_per_node(const wire::JobView& job);
// "gres:gpu:N" (with the type: "gres:gpu:v100:N"), as Slurm writes a GPU TRES request.
std::string gpu_tres_text(const wire::JobView& job, std::int64_t n);
// --mail-type as scontrol's MailType= lists it (ALL: Slurm's whole list).
std::string mail_type_text(std::uint8_t events);

}  // namespace fairway::cli
