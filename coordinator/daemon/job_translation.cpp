#include "coordinator/daemon/job_translation.h"

namespace fairway::daemon {

StoredJob to_row(const JobRecord& rec, const ClusterState& cluster) {
  StoredJob s;
  s.id = rec.spec.id;
  s.user = rec.spec.user;
  s.state = rec.state == JobState::kBlocked ? JobState::kPending : rec.state;
  s.submit_time = rec.spec.submit_time;
  if (rec.state == JobState::kRunning || is_terminal(rec.state)) {
    if (!rec.allocation.empty()) s.start_time = rec.start_time;
  }
  if (is_terminal(rec.state)) s.end_time = rec.end_time;
  s.requeue_count = rec.requeue_count;
  s.reason = rec.reason;
  s.exit_code = rec.outcome.exit_code;
  s.signal = rec.outcome.signal;
  s.peak_memory_bytes = rec.outcome.peak_memory_bytes;
  s.cpu_time_ms = rec.outcome.cpu_time_ms;
  // By name: node indices hold only within one cluster layout (stored_job.h).
  for (const auto& na : rec.allocation.nodes)
    s.allocation.push_back({cluster.node(na.node).topology.name, na.cores, na.gpus});
  return s;
}

RowJob from_row(const StoredJob& row, const wire::SubmitRequest& request) {
  RowJob out;
  JobRecord& rec = out.record;
  rec.spec = request.spec;
  rec.spec.id = row.id;
  rec.spec.submit_time = row.submit_time;
  // Held is the row's state, not the request's flag (a release does not rewrite the request).
  rec.spec.hold = row.state == JobState::kHeld;
  rec.state = row.state;
  if (row.start_time) {
    rec.start_time = *row.start_time;
  } else if (row.state == JobState::kRunning || row.state == JobState::kCompleting) {
    rec.start_time = row.submit_time;  // none is stored so; read as recovery always has
  }
  if (row.end_time) rec.end_time = *row.end_time;
  rec.requeue_count = row.requeue_count;
  rec.reason = row.reason;
  rec.outcome = {row.exit_code, row.signal, row.peak_memory_bytes, row.cpu_time_ms};
  out.tracking.working_dir = request.program.working_dir;
  out.tracking.stdout_path = request.program.stdout_path;
  out.tracking.stderr_path = request.program.stderr_path;
  return out;
}

std::optional<Allocation> allocation_on(const std::vector<StoredNodeAllocation>& nodes,
                                        const ClusterState& cluster) {
  Allocation alloc;
  for (const auto& a : nodes) {
    auto idx = cluster.find_node(a.node);
    if (!idx) return std::nullopt;
    alloc.nodes.push_back({*idx, a.cores, a.gpus});
  }
  return alloc;
}

}  // namespace fairway::daemon
