// Whether the scheduling core takes a job, and in what shape: the checks of a submission
// (limits, partitions, access, reservations) as functions that read and change nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>

#include "coordinator/core/array_book.h"
#include "coordinator/core/cluster_state.h"
#include "coordinator/core/job_dependencies.h"
#include "coordinator/core/job_record.h"
#include "coordinator/core/maintenance_schedule.h"
#include "coordinator/core/maxps_limit.h"
#include "coordinator/core/node_constraints.h"
#include "coordinator/core/open_job_counts.h"
#include "coordinator/core/project_reservations.h"
#include "shared/base/result.h"
#include "shared/config/config.h"

namespace fairway {

// What admission reads of the scheduler, borrowed for one call.
struct AdmissionView {
  const Config& config;
  const ClusterState& cluster;
  const MaxPsLimit& maxps;
  const MaintenanceSchedule& maintenance;
  const ProjectReservations& reservations;
  const ArrayBook& arrays;
  const OpenJobCounts& open_jobs;
  const std::unordered_map<std::uint64_t, JobRecord>& jobs;  // ids in use
  const LiveJobState& live;                                  // for --dependency
  const EndedJobs& ended;
};

// What admission decided: the spec as the job will run (its partition, QOS, time limit,
// memory and node shape filled in) and the parts of its record that follow from it.
// Every member has its default here, so a decision is built in place around the spec it
// is given (AdmissionDecision(std::move(spec))), and filled in by the checks.
struct AdmissionDecision {
  JobSpec spec = {};
  PartitionIndex partition = {};
  std::optional<NodeMask> allowed_nodes = {};
  std::optional<ResourceAmount> footprint = {};  // set when placing takes more than it asks
  double qos_priority = 0;
  std::optional<double> priority_cap = {};
  std::optional<Duration> queue_target_time = {};
  std::optional<std::size_t> node_bin = {};
  std::int64_t open_jobs_added = 0;  // for the per-user counts (an array: all its tasks)
};

namespace admission {

// A new job, or a waiting one changed by `update job`: every check, the first refusal
// naming the field and value. `access_groups` unset: the access rules are not checked (an
// update that moves nothing); set: the submitter's Unix groups for them.
Result<AdmissionDecision> admit(JobSpec spec, const AdmissionView& view, Time now,
                                std::optional<std::span<const std::string>> access_groups);
// A job accepted before a coordinator restart: it passed the checks once, and its nodes
// may not have registered yet, so only what shapes its record is done again (a malformed
// or unplaceable stored spec is still refused).
Result<AdmissionDecision> restore(JobSpec spec, const AdmissionView& view);

// The partition a job asking `spec.partition` goes to (its name, or the default, or the
// interactive default); nullptr when no partition has that name.
const PartitionConfig* partition_for(const Config& config, const JobSpec& spec);
// The job's request with its partition's default_mem_per_cpu_mb when it asks no memory.
ResourceRequest with_default_memory(const Config& config, const JobSpec& spec);

}  // namespace admission
}  // namespace fairway
