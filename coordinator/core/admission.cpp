#include "coordinator/core/admission.h"

#include <algorithm>

#include "coordinator/core/access_rules.h"
#include "coordinator/core/node_constraints.h"
#include "coordinator/core/node_count_bins.h"
#include "coordinator/core/request_fit.h"
#include "shared/base/duration_format.h"
#include "shared/base/try.h"

namespace fairway::admission {
namespace {

// A refusal from a check that does not name the job: the job's name goes in front.
Status in_job(Status st, const std::string& job) {
  if (st) return st;
  return std::unexpected(st.error().with_context(job));
}

// Both paths: the id is free, the array's indices within limits, the request's numbers sane.
Status check_identity(AdmissionDecision& d, const AdmissionView& v, const std::string& job) {
  const JobSpec& spec = d.spec;
  if (v.jobs.contains(spec.id.value()) || v.arrays.contains(spec.id)) {
    return make_error(ErrorCode::kAlreadyExists, job + ": id already in use");
  }
  FAIRWAY_TRY_ASSIGN(added, v.arrays.jobs_added_by(spec, v.config.limits.max_array_size));
  d.open_jobs_added = added;
  const ResourceRequest& r = spec.resources;
  if (r.nodes < 0) return invalid_argument(job + ": nodes must be >= 0, got " + std::to_string(r.nodes));
  if (r.cores < 1) return invalid_argument(job + ": cores must be >= 1, got " + std::to_string(r.cores));
  if (r.gpus < 0) return invalid_argument(job + ": gpus must be >= 0, got " + std::to_string(r.gpus));
  if (spec.time_limit < Duration()) {
    return invalid_argument(job + ": time_limit must be >= 0, got " +
                            std::to_string(spec.time_limit.count()) + " s");
  }
  return ok_status();
}

Status check_dependencies(const JobSpec& spec, const AdmissionView& v, const std::string& job) {
  if (const auto bad = unknown_dependency(spec, v.live, v.ended)) {
    return invalid_argument(job + ": --dependency names job " + std::to_string(bad->value()) +
                            (*bad == spec.id ? ", itself" : ", which does not exist"));
  }
  return ok_status();
}

Result<const PartitionConfig*> choose_partition(AdmissionDecision& d, const AdmissionView& v,
                                                const std::string& job) {
  const PartitionConfig* pc = partition_for(v.config, d.spec);
  if (pc == nullptr) return invalid_argument(job + ": partition '" + d.spec.partition + "' does not exist");
  d.spec.partition = pc->name;
  return pc;
}

// Palmetto's interact partition lowers an over-long request rather than refusing it.
void clamp_time_limit(JobSpec& spec, const PartitionConfig& pc) {
  if (pc.clamp_time_limit && spec.time_limit > pc.max_time) spec.time_limit = pc.max_time;
}

// The job's QOS (the partition's default when it names none) and what it gives the job;
// nullptr when it has none.
Result<const QosConfig*> choose_qos(AdmissionDecision& d, const AdmissionView& v, const PartitionConfig& pc,
                                    const std::string& job) {
  JobSpec& spec = d.spec;
  const auto& all = v.config.qos;
  // "normal" is Slurm's QOS for a job that names none: where no QOS of that name is
  // configured it asks for the default, so its limits still apply.
  if (spec.qos == "normal" &&
      std::none_of(all.begin(), all.end(), [](const QosConfig& q) { return q.name == "normal"; })) {
    spec.qos.clear();
  }
  if (spec.qos.empty()) spec.qos = pc.default_qos;
  if (spec.qos.empty()) return nullptr;
  const QosConfig* qc = nullptr;
  for (const auto& q : all) {
    if (q.name == spec.qos) qc = &q;
  }
  if (qc == nullptr) return invalid_argument(job + ": qos '" + spec.qos + "' does not exist");
  if (spec.time_limit > qc->max_time) {
    return invalid_argument(job + ": time_limit " + format_walltime(spec.time_limit) + " exceeds qos '" +
                            qc->name + "' max_time " + format_walltime(qc->max_time));
  }
  d.qos_priority = qc->priority;
  d.priority_cap = qc->max_priority;
  d.queue_target_time = qc->queue_target_time;
  return qc;
}

Status check_access(const JobSpec& spec, const QosConfig* qc, const PartitionConfig& pc,
                    std::span<const std::string> groups, const std::string& job) {
  const AccessRequest who{spec.user, spec.account, spec.qos, spec.uid, groups};
  if (qc != nullptr) FAIRWAY_TRY(in_job(check_qos_access(*qc, who), job));
  return in_job(check_partition_access(pc, who), job);
}

Status check_partition_time(const JobSpec& spec, const PartitionConfig& pc, const std::string& job) {
  if (spec.time_limit > pc.max_time) {
    return invalid_argument(job + ": time_limit " + format_walltime(spec.time_limit) +
                            " exceeds partition '" + pc.name + "' max_time " + format_walltime(pc.max_time));
  }
  return ok_status();
}

// The job's place in the cluster's partitions, and the memory it asks there.
void enter_partition(AdmissionDecision& d, const AdmissionView& v, const PartitionConfig& pc) {
  d.partition = *v.cluster.find_partition(pc.name);
  d.spec.resources = with_default_memory(v.config, d.spec);
}

// The request as it will be placed: whole nodes above one node's cores, with
// allocation_unit = "node" or --exclusive; a core on each node its GPUs come from.
void shape_request(AdmissionDecision& d, const AdmissionView& v, const PartitionConfig& pc) {
  JobSpec& spec = d.spec;
  const PartitionState& ps = v.cluster.partition(d.partition);
  const ResourceRequest& r = spec.resources;
  if (pc.placement.allocation_unit == AllocationUnit::kNode ||
      (pc.whole_nodes_above_node_size && r.nodes == 0 && r.gpus == 0 && r.cores > ps.largest_node_cores)) {
    spec.resources = whole_node_request(ps, r);
  } else if (spec.exclusive) {
    // --exclusive: whole nodes of the partition's largest size, as allocation_unit = node.
    spec.resources = whole_node_request(ps, r);
  }
  // GPUs spread over nodes need a core on each node they come from (gpus_toomany: --gpus=3
  // with one task on two-GPU nodes); as Slurm, the job gets those cores rather than
  // waiting forever for a placement that cannot exist.
  if (spec.resources.nodes == 0 && spec.resources.gpus > 0 && ps.largest_node_gpus > 0) {
    const std::int32_t per_node = ps.largest_node_gpus;
    const std::int32_t gpu_nodes = (spec.resources.gpus + per_node - 1) / per_node;
    spec.resources.cores = std::max(spec.resources.cores, gpu_nodes);
  }
}

// -w, -x and --constraint: the nodes it may use. A new job must name nodes that exist
// and could hold it; a restored one keeps what is left of its list.
Status limit_nodes(AdmissionDecision& d, const AdmissionView& v, bool new_job, const std::string& job) {
  if (!has_node_constraints(d.spec)) return ok_status();
  auto mask = allowed_nodes(v.cluster, d.partition, d.spec, new_job);
  if (!mask) return std::unexpected(mask.error().with_context(job));
  if (new_job) FAIRWAY_TRY(in_job(fits_on_nodes(v.cluster, *mask, d.spec.resources), job));
  d.allowed_nodes = std::move(*mask);
  return ok_status();
}

std::int32_t requested_node_count(const AdmissionDecision& d, const AdmissionView& v) {
  return requested_nodes(d.spec.resources, v.cluster.partition(d.partition).largest_node_cores);
}

// What placing it takes from the partition when more than it asks (expected_footprint).
void set_footprint(AdmissionDecision& d, const AdmissionView& v) {
  if (const ResourceAmount fp = expected_footprint(v.cluster, d.partition, d.spec.resources);
      fp != requested_amount(d.spec.resources)) {
    d.footprint = fp;
  }
}

// A new job's size against what it could ever get: its node bin's time, the partition's
// machine, one node's CPUs for a task, MAXPS's hard limit.
Status check_size(const AdmissionDecision& d, const AdmissionView& v, const PartitionConfig& pc,
                  const std::string& job) {
  const JobSpec& spec = d.spec;
  const ResourceRequest& r = spec.resources;
  if (d.node_bin && spec.time_limit > v.config.node_bins[*d.node_bin].max_time) {
    const NodeBinConfig& b = v.config.node_bins[*d.node_bin];
    return invalid_argument(job + ": time_limit " + format_walltime(spec.time_limit) + " exceeds node bin '" +
                            b.name + "' (" + std::to_string(requested_node_count(d, v)) +
                            " nodes) max_time " + format_walltime(b.max_time));
  }
  const PartitionState& ps = v.cluster.partition(d.partition);
  if (!can_ever_fit(v.cluster, d.partition, r)) {
    if (auto unknown = unknown_gpu_type(ps, r.gpu_type)) {
      return make_error(ErrorCode::kResourceExhausted, job + ": no node in partition '" + pc.name +
                                                           "' has GPUs of type '" + r.gpu_type + "' (" +
                                                           *unknown + ")");
    }
    return make_error(ErrorCode::kResourceExhausted,
                      job + ": requests " + std::to_string(r.total_cores()) + " cores and " +
                          std::to_string(r.total_gpus()) + " GPUs" + describe_memory_request(r) +
                          (r.nodes > 0 ? " on " + std::to_string(r.nodes) + " nodes" : std::string()) +
                          (r.gpu_type.empty() ? std::string() : " of type '" + r.gpu_type + "'") +
                          ", more than partition '" + pc.name + "' can ever hold (" +
                          std::to_string(ps.capacity.cores) + " cores, " + std::to_string(ps.capacity.gpus) +
                          " GPUs on " + std::to_string(ps.nodes.size()) + " nodes" +
                          describe_node_memory(ps) + ")");
  }
  // A task's CPUs are on one node: -c larger than every node here could never run.
  if (spec.tasks.cpus_per_task > ps.largest_node_cores) {
    return make_error(ErrorCode::kResourceExhausted,
                      job + ": --cpus-per-task=" + std::to_string(spec.tasks.cpus_per_task) +
                          " is more CPUs than any node of partition '" + pc.name + "' has (" +
                          std::to_string(ps.largest_node_cores) + ")");
  }
  // "A job may never exceed a HARD limit": one that does on its own would wait forever.
  if (auto hard = v.maxps.hard_limit(spec.account)) {
    const double psec = static_cast<double>(spec.time_limit.count()) * static_cast<double>(r.total_cores());
    if (psec > *hard) {
      return invalid_argument(
          job + ": time_limit x cores = " + std::to_string(static_cast<std::int64_t>(psec)) +
          " processor-seconds exceeds the MAXPS hard limit " +
          std::to_string(static_cast<std::int64_t>(*hard)) + " of account '" + spec.account + "'");
    }
  }
  return ok_status();
}

// The user's open jobs with this one's against limits.max_submitted_jobs_per_user and
// the partition's max_jobs_per_user.
Status check_open_jobs(const AdmissionDecision& d, const AdmissionView& v, const PartitionConfig& pc,
                       const std::string& job) {
  const JobSpec& spec = d.spec;
  const auto& max_open = v.config.limits.max_submitted_jobs_per_user;
  const std::int32_t open = v.open_jobs.of_user(spec.user);
  if (max_open && open + d.open_jobs_added > *max_open) {
    return make_error(ErrorCode::kResourceExhausted,
                      job + ": user '" + spec.user + "' already has " + std::to_string(open) +
                          " jobs pending or running (limits.max_submitted_jobs_per_user = " +
                          std::to_string(*max_open) + ")");
  }
  if (pc.max_jobs_per_user && v.open_jobs.in_partition(spec) + d.open_jobs_added > *pc.max_jobs_per_user) {
    return make_error(ErrorCode::kResourceExhausted, job + ": user '" + spec.user + "' already has " +
                                                         std::to_string(*pc.max_jobs_per_user) +
                                                         " job(s) in partition '" + pc.name +
                                                         "' (partitions.max_jobs_per_user)");
  }
  return ok_status();
}

std::string job_name(const JobSpec& spec) {
  return "job " + std::to_string(spec.id.value());
}

}  // namespace

// The decision is built in the Result that is returned (no move of it on the way out).
Result<AdmissionDecision> admit(JobSpec spec, const AdmissionView& v, Time now,
                                std::optional<std::span<const std::string>> access_groups) {
  Result<AdmissionDecision> out(std::in_place, std::move(spec));
  AdmissionDecision& d = *out;
  const std::string job = job_name(d.spec);
  FAIRWAY_TRY(check_identity(d, v, job));
  FAIRWAY_TRY(check_dependencies(d.spec, v, job));
  FAIRWAY_TRY_ASSIGN(pc, choose_partition(d, v, job));
  // No limit stated (0): the partition's default_time, as Slurm's DefaultTime (else MaxTime).
  if (d.spec.time_limit == Duration()) d.spec.time_limit = pc->default_time;
  clamp_time_limit(d.spec, *pc);
  FAIRWAY_TRY_ASSIGN(qc, choose_qos(d, v, *pc, job));
  if (access_groups) FAIRWAY_TRY(check_access(d.spec, qc, *pc, *access_groups, job));
  FAIRWAY_TRY(check_partition_time(d.spec, *pc, job));
  enter_partition(d, v, *pc);
  if (!d.spec.reservation.empty()) {
    FAIRWAY_TRY(in_job(v.reservations.check(d.spec, d.partition, now, v.maintenance, v.cluster), job));
  }
  shape_request(d, v, *pc);
  FAIRWAY_TRY(limit_nodes(d, v, true, job));
  d.node_bin = find_node_bin(v.config.node_bins, requested_node_count(d, v));
  FAIRWAY_TRY(check_size(d, v, *pc, job));
  FAIRWAY_TRY(check_open_jobs(d, v, *pc, job));
  set_footprint(d, v);
  return out;
}

Result<AdmissionDecision> restore(JobSpec spec, const AdmissionView& v) {
  Result<AdmissionDecision> out(std::in_place, std::move(spec));
  AdmissionDecision& d = *out;
  const std::string job = job_name(d.spec);
  FAIRWAY_TRY(check_identity(d, v, job));
  FAIRWAY_TRY_ASSIGN(pc, choose_partition(d, v, job));
  clamp_time_limit(d.spec, *pc);
  FAIRWAY_TRY(choose_qos(d, v, *pc, job));
  FAIRWAY_TRY(check_partition_time(d.spec, *pc, job));
  enter_partition(d, v, *pc);
  if (!d.spec.reservation.empty()) {
    FAIRWAY_TRY(in_job(v.reservations.check_known(d.spec.reservation, v.maintenance), job));
  }
  shape_request(d, v, *pc);
  FAIRWAY_TRY(limit_nodes(d, v, false, job));
  d.node_bin = find_node_bin(v.config.node_bins, requested_node_count(d, v));
  set_footprint(d, v);
  return out;
}

const PartitionConfig* partition_for(const Config& config, const JobSpec& spec) {
  if (spec.partition.empty()) {
    const PartitionConfig* pc = nullptr;
    if (spec.interactive) {
      for (const auto& p : config.partitions) {
        if (p.default_for_interactive) pc = &p;
      }
    }
    if (pc == nullptr) pc = config.default_partition();
    return pc != nullptr ? pc : &config.partitions.front();
  }
  for (const auto& p : config.partitions) {
    if (p.name == spec.partition) return &p;
  }
  return nullptr;
}

ResourceRequest with_default_memory(const Config& config, const JobSpec& spec) {
  ResourceRequest r = spec.resources;
  const PartitionConfig* pc = partition_for(config, spec);
  if (pc != nullptr && r.memory_per_node_mb == 0 && r.memory_per_cpu_mb == 0) {
    r.memory_per_cpu_mb = pc->default_mem_per_cpu_mb;
  }
  return r;
}

}  // namespace fairway::admission
