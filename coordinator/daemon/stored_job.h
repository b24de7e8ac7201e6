// What the coordinator persists about a job and a node: plain records, no behaviour.
// Value types; safe to copy between threads, no shared state.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shared/base/ids.h"
#include "shared/base/time.h"
#include "shared/model/job_state.h"

namespace fairway::daemon {

// Nodes are named, not indexed: NodeIndex is only valid within one ClusterState, and the
// store must outlive any one cluster layout (nodes added or removed across restarts).
struct StoredNodeAllocation {
  std::string node;
  std::vector<std::int32_t> cores, gpus;
  bool operator==(const StoredNodeAllocation&) const = default;
};

struct StoredJob {
  JobId id;
  std::string user;
  std::string client_token;  // may be empty (no dedup)
  std::string request;       // opaque bytes (the encoded submit request), stored as a BLOB
  JobState state = JobState::kPending;
  Time submit_time;
  std::optional<Time> start_time, end_time;
  std::vector<StoredNodeAllocation> allocation;
  std::optional<std::int32_t> exit_code, signal;
  std::string reason;  // why it ended / was requeued, free text
  std::int32_t requeue_count = 0;
  std::optional<std::int64_t> peak_memory_bytes, cpu_time_ms;  // from its cgroup, once ended
  bool operator==(const StoredJob&) const = default;
};

// A step of a job (srun or `fairway run` inside it): what sacct lists as ID.N. Written when
// it starts and again when it ends; it ran on its job's first `nodes` nodes.
struct StoredStep {
  JobId job;
  std::int32_t step = 0;
  std::string name;
  std::int32_t ntasks = 0;
  std::int32_t nodes = 0;
  JobState state = JobState::kRunning;
  Time start_time;
  std::optional<Time> end_time;
  std::int32_t exit_code = 0;
  std::int32_t signal = 0;
  // What its srun reported its tasks used (schema 5; none before, or when it did not say).
  std::optional<std::int64_t> max_rss_kb = {};
  std::optional<std::int64_t> cpu_us = {};
  bool operator==(const StoredStep&) const = default;
};

// What a finished run used, kept for fair-share once its job has left the store
// (keep_finished): usage counts for months, and a site may keep job records for less. Made
// when the job is purged, with what recovery would have charged for it (its cores, its
// memory with its partition's default, its GPUs' types), so that later node or partition
// changes do not alter it.
struct StoredUsageRun {
  JobId job;
  std::string account, user;
  std::string reservation;  // the project reservation it ran in, if any
  Time start, end;
  std::int64_t cores = 0;
  std::int64_t memory_mb = 0;
  std::vector<std::string> gpu_types;  // one entry per GPU held
  bool operator==(const StoredUsageRun&) const = default;
};

// An admin's decision about a node, which must survive a coordinator restart.
struct NodeAdminState {
  std::string node;
  bool drained = false;
  std::string reason;
  // Who drained it and when (sinfo -R); empty / unset in rows from before schema 3.
  std::string by_user = {};
  std::optional<std::uint32_t> by_uid = {};
  std::optional<Time> at = {};
  bool operator==(const NodeAdminState&) const = default;
};

}  // namespace fairway::daemon
