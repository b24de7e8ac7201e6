// The Scheduler calls that change which nodes exist and bring jobs back after a
// restart: the daemon's registry and recovery drive them; the simulator never does.
#include <algorithm>
#include <string>

#include "coordinator/core/node_constraints.h"
#include "coordinator/core/scheduler.h"

#include "coordinator/core/placement.h"
#include "shared/base/try.h"

namespace fairway {

Result<NodeIndex> Scheduler::add_node(NodeTopology topology) {
  if (cluster_.find_node(topology.name)) {
    return make_error(ErrorCode::kAlreadyExists, "node '" + topology.name + "' already exists");
  }
  if (node_source_ == NodeSource::kConfig || !config_.nodes.empty()) {
    return invalid_argument("node '" + topology.name +
                            "' is not declared in the config's [[nodes]]");
  }
  if (topology.total_cores() < 1) {
    return invalid_argument("node '" + topology.name + "' reports no cores");
  }
  for (const auto& g : topology.gpus) {
    if (g.socket < 0 || static_cast<std::size_t>(g.socket) >= topology.sockets.size()) {
      return invalid_argument("node '" + topology.name + "': a GPU names socket " +
                              std::to_string(g.socket) + ", which does not exist");
    }
  }
  std::vector<PartitionIndex> member_of;
  for (std::size_t p = 0; p < config_.partitions.size(); ++p) {
    if (config_.partitions[p].nodes.empty()) {
      member_of.push_back(PartitionIndex(static_cast<std::uint32_t>(p)));
    }
  }
  const NodeIndex added = cluster_.add_node_later(std::move(topology), member_of);
  // A waiting job limited to named nodes or features may be able to use the new one.
  for (JobRecord* j : waiting_) {
    if (!j->allowed_nodes) continue;
    if (auto mask = allowed_nodes(cluster_, j->partition, j->spec, false)) {
      j->allowed_nodes = std::move(*mask);
    } else {
      j->allowed_nodes->resize(cluster_.node_count(), 0);
    }
  }
  return added;
}

void Scheduler::set_node_up(NodeIndex n, bool up) { cluster_.set_node_up(n, up); }

Status Scheduler::requeue(JobId id, Time now) {
  JobRecord* j = find(id);
  if (j == nullptr) return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  if (j->state != JobState::kRunning && j->state != JobState::kCompleting) {
    return make_error(ErrorCode::kFailedPrecondition, "job " + std::to_string(id.value()) + " is " +
                                                          std::string(to_string(j->state)) +
                                                          ", not running");
  }
  FAIRWAY_TRY(check_transition(j->state, JobState::kRequeued));
  ++j->requeue_count;
  cluster_.release(j->allocation);
  ledger_.stop_usage(j->association, j->billing_rate, now);
  remove_from(running_, *j);
  victim_gone(*j);
  j->allocation = {};
  j->partition_amounts.clear();
  j->billing_rate = 0;
  j->state = JobState::kPending;
  j->why = {};
  j->reserved_start.reset();
  j->reserved_at.reset();
  j->eligible_since = now;
  j->slot = waiting_.size();
  waiting_.push_back(j);
  return ok_status();
}

Status Scheduler::restore_running(JobSpec spec, Allocation alloc, Time start, std::int32_t requeue_count) {
  const std::string job = "job " + std::to_string(spec.id.value());
  for (const auto& na : alloc.nodes) {
    if (na.node.value() >= cluster_.node_count()) return invalid_argument(job + ": unknown node index");
    const NodeState& ns = cluster_.node(na.node);
    for (std::int32_t c : na.cores) {
      if (c < 0 || static_cast<std::size_t>(c) >= ns.core_used.size() ||
          !ns.core_free(static_cast<std::size_t>(c))) {
        return make_error(ErrorCode::kFailedPrecondition,
                          job + ": core " + std::to_string(c) + " of node '" + ns.topology.name +
                              "' is not free");
      }
    }
    for (std::int32_t g : na.gpus) {
      if (g < 0 || static_cast<std::size_t>(g) >= ns.gpu_used.size() ||
          !ns.gpu_usable(static_cast<std::size_t>(g))) {
        return make_error(ErrorCode::kFailedPrecondition,
                          job + ": GPU " + std::to_string(g) + " of node '" + ns.topology.name +
                              "' is not free");
      }
    }
  }
  const JobId id = spec.id;
  spec.hold = false;
  FAIRWAY_TRY(readmit(std::move(spec), start));
  JobRecord& j = *find(id);
  j.requeue_count = requeue_count;
  // Stored allocations name cores, not memory: it follows from the admitted request.
  assign_memory(alloc, j.spec.resources);
  start_job(j, std::move(alloc), start);
  return ok_status();
}

}  // namespace fairway
