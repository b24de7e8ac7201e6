// Scheduler::update: `fairway update job`. A waiting job is admitted again with its new
// spec, so every check a submission passes applies to the change; it keeps its id, its age,
// its hold and its place in line. A running job may change only what does not move it.
#include "coordinator/core/scheduler.h"

#include <cassert>

namespace fairway {

Status Scheduler::update(JobId id, const JobChanges& c, std::span<const std::string> owner_groups) {
  JobRecord* j = find(id);
  const std::string job = "job " + std::to_string(id.value());
  if (j == nullptr) return make_error(ErrorCode::kNotFound, job + " not found");
  if (is_terminal(j->state)) {
    return make_error(ErrorCode::kFailedPrecondition, job + " has ended: nothing to update");
  }
  if (c.time_limit && *c.time_limit <= Duration()) {
    return invalid_argument(job + ": TimeLimit must be positive");
  }
  if (!is_waiting(j->state)) {
    // Moving a running job (partition, QOS, account, start time) would change what it holds.
    if (c.partition || c.qos || c.account || c.nice || c.begin) {
      return make_error(ErrorCode::kFailedPrecondition,
                        job + " is " + std::string(to_string(j->state)) +
                            ": only TimeLimit, JobName and Comment can change once it runs");
    }
    if (c.time_limit) j->spec.time_limit = *c.time_limit;
    if (c.name) j->spec.name = *c.name;
    if (c.comment) j->spec.comment = *c.comment;
    return ok_status();
  }

  JobSpec spec = j->spec;
  if (c.time_limit) spec.time_limit = *c.time_limit;
  if (c.partition) {
    spec.partition = *c.partition;
    if (!c.qos) spec.qos.clear();  // the new partition's default QOS, unless one is named
  }
  if (c.qos) spec.qos = *c.qos;
  if (c.account) spec.account = *c.account;
  if (c.name) spec.name = *c.name;
  if (c.comment) spec.comment = *c.comment;
  if (c.nice) spec.nice = *c.nice;
  if (c.begin) spec.begin = *c.begin;

  // Take the record out, admit the new spec under the same id, and carry over what the
  // job has earned while waiting. Nothing else points at a waiting job's record.
  JobRecord old = std::move(*j);
  remove_from(waiting_, *j);
  open_jobs_.add(old.spec, -1);
  jobs_.erase(id.value());
  // A move is checked against the access rules as a submission would be (bob may not walk
  // his job into alice's owner partition); a rename is not, so a tightened rule does not
  // pin jobs already inside.
  const bool moves = c.partition || c.qos || c.account;
  if (auto st = admit(spec, old.eligible_since,
                      moves ? std::optional<std::span<const std::string>>(owner_groups) : std::nullopt);
      !st) {
    // Put it back exactly as it was.
    open_jobs_.add(old.spec, 1);
    queue(std::move(old));
    return st;
  }
  JobRecord& fresh = jobs_.at(id.value());
  fresh.state = old.state;
  fresh.why = old.why;
  fresh.idle_since = old.idle_since;
  fresh.bypass_count = old.bypass_count;
  return ok_status();
}

}  // namespace fairway
