// The --json output of the CLI's queries: stable keys named after the wire fields, times as
// epoch seconds (null when unset), spans in seconds. Pure and thread-safe.
#pragma once

#include <string>
#include <vector>

#include "shared/wire/messages.h"

namespace fairway::cli {

// {"now": S, "jobs": [job...]}
std::string jobs_json(const wire::JobQueryReply& reply);
// One job object (fairway show job --json).
std::string job_json(const wire::JobView& job);
// {"nodes": [node...]}
std::string nodes_json(const wire::NodeQueryReply& reply);
// One node object (fairway show node --json).
std::string node_json(const wire::NodeView& node);
// fairway submit --json: {"job": ID, "warnings": [...]}.
std::string submit_json(JobId job, const std::vector<std::string>& warnings);
// cancel, hold, release, requeue and update with --json: {"results": [{"job", "ok", "message"}]}.
std::string control_json(const wire::JobControlReply& reply);

}  // namespace fairway::cli
