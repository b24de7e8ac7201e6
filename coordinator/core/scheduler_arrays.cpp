// Job arrays in the Scheduler: an array waits as one prototype; each pass makes jobs of the
// tasks that could start and a few more to plan (Slurm's bf_max_job_array_resv), so the
// cost of a pass does not grow with the tasks an array has yet to run.
#include <algorithm>
#include <cassert>
#include <limits>
#include <unordered_map>

#include "coordinator/core/scheduler.h"
#include "shared/base/try.h"

namespace fairway {

void Scheduler::add_array(JobRecord prototype) {
  ArrayJob a;
  a.held = prototype.spec.hold;
  a.prototype = std::move(prototype);
  a.prototype.state = JobState::kPending;
  a.prototype.why = {};
  a.unsplit = TaskPositions(a.count());
  const std::uint64_t id = a.id().value();
  arrays_.emplace(id, std::move(a));
}

Result<std::int64_t> Scheduler::jobs_added_by(const JobSpec& spec, ArrayJob*& claimed_from) {
  claimed_from = nullptr;
  if (!spec.array.empty()) {
    if (spec.array.max_index() >= config_.limits.max_array_size) {
      return invalid_argument("job " + std::to_string(spec.id.value()) + ": --array index " +
                              std::to_string(spec.array.max_index()) + " is over the largest allowed, " +
                              std::to_string(config_.limits.max_array_size - 1) + " (limits.max_array_size - 1)");
    }
    return spec.array.count();
  }
  if (spec.is_array_task()) {
    ArrayJob* a = array_holding(spec.id);
    if (a != nullptr && a->unsplit.contains(a->position_of(spec.id))) {
      claimed_from = a;
      return 0;
    }
  }
  return 1;
}

const ArrayJob* Scheduler::array(JobId id) const {
  auto it = arrays_.find(id.value());
  return it == arrays_.end() ? nullptr : &it->second;
}

ArrayJob* Scheduler::array_holding(JobId task) {
  auto it = arrays_.lower_bound(task.value());  // the first array at or above the id
  if (it == arrays_.begin()) return nullptr;
  --it;
  return it->second.holds_id(task) ? &it->second : nullptr;
}

const ArrayJob* Scheduler::array_holding(JobId task) const {
  return const_cast<Scheduler*>(this)->array_holding(task);
}

JobRecord& Scheduler::make_array_task(ArrayJob& a, std::int64_t position) {
  JobRecord rec = a.prototype;
  rec.spec.id = a.task_id(position);
  rec.spec.array_job = a.id();
  rec.spec.array_task = a.prototype.spec.array.index_at(position);
  rec.spec.array = {};
  rec.spec.hold = false;
  rec.state = JobState::kPending;
  auto [it, inserted] = jobs_.emplace(rec.spec.id.value(), std::move(rec));
  assert(inserted);
  it->second.slot = waiting_.size();
  waiting_.push_back(&it->second);
  return it->second;
}

void Scheduler::make_array_tasks() {
  if (arrays_.empty()) return;
  // Each array's tasks that run or would start (its %limit counts them; a held one would
  // not), and those of them waiting to start (its planning window counts them).
  std::unordered_map<std::uint64_t, std::int64_t> live, waiting;
  for (const JobRecord* j : waiting_) {
    if (!j->spec.is_array_task() || (j->state != JobState::kPending && j->state != JobState::kBlocked)) continue;
    ++live[j->spec.array_job.value()];
    ++waiting[j->spec.array_job.value()];
  }
  for (const JobRecord* j : running_) {
    if (j->spec.is_array_task()) ++live[j->spec.array_job.value()];
  }
  constexpr std::int64_t kMany = std::numeric_limits<std::int64_t>::max() / 4;
  for (auto& [id, a] : arrays_) {
    if (a.held || a.unsplit.empty()) continue;
    std::int64_t n = a.unsplit.size();
    a.prototype.why = {};
    const std::int32_t limit = a.prototype.spec.array.max_running;
    if (limit > 0) n = std::min(n, limit - live[id]);
    // How many could start now on the partition's free resources: an upper bound, since
    // placement may find less. The tasks past it wait unmade and hold no reservation.
    const ResourceAmount need = a.prototype.need();
    const ResourceAmount free = cluster_.partition(a.prototype.partition).free;
    std::int64_t fit = need.cores > 0 ? free.cores / need.cores : kMany;
    if (need.gpus > 0) fit = std::min(fit, free.gpus / need.gpus);
    if (need.memory_mb > 0) fit = std::min(fit, free.memory_mb / need.memory_mb);
    n = std::min(n, fit + config_.scheduler.array_task_reservations - waiting[id]);
    for (std::int64_t i = 0; i < n; ++i) make_array_task(a, a.unsplit.take_front());
    // What the tasks left unmade wait for, when it is the limit (else the made ones say).
    if (limit > 0 && live[id] + std::max<std::int64_t>(n, 0) >= limit && !a.unsplit.empty()) {
      a.prototype.why.add(PendingReason::kArrayTaskLimit);
    }
  }
}

Result<JobId> Scheduler::split_array_task(JobId array_id, std::int32_t index) {
  auto it = arrays_.find(array_id.value());
  const std::string name = std::to_string(array_id.value()) + "_" + std::to_string(index);
  if (it == arrays_.end()) {
    return make_error(ErrorCode::kNotFound, "job array " + std::to_string(array_id.value()) + " not found");
  }
  ArrayJob& a = it->second;
  const std::optional<std::int64_t> pos = a.prototype.spec.array.position_of(index);
  if (!pos) {
    return make_error(ErrorCode::kNotFound, "job " + name + " not found: the array has tasks " +
                                                format_array_spec(a.prototype.spec.array));
  }
  const JobId id = a.task_id(*pos);
  if (!a.unsplit.erase(*pos)) return id;
  JobRecord& j = make_array_task(a, *pos);
  if (a.held) {
    j.state = JobState::kHeld;
    j.why.add(PendingReason::kHeld);
  }
  return id;
}

std::vector<JobId> Scheduler::live_array_tasks(JobId array_id) const {
  std::vector<JobId> out;
  const ArrayJob* a = array(array_id);
  if (a == nullptr) return out;
  for (std::int64_t p = 0; p < a->count(); ++p) {
    const JobRecord* j = job(a->task_id(p));
    if (j != nullptr && !is_terminal(j->state)) out.push_back(j->spec.id);
  }
  return out;
}

Status Scheduler::cancel_array(JobId id) {
  ArrayJob& a = arrays_.at(id.value());
  a.cancelled = true;
  const std::int64_t n = a.unsplit.size();
  a.unsplit.clear();
  uncount_array_tasks(a, n);
  // The tasks that are jobs are cancelled one by one by the caller (the running ones have
  // processes to stop); the array ends with the last of them.
  if (n > 0) array_tasks_ended(a, n, JobState::kCancelled);
  return ok_status();
}

Status Scheduler::hold_array(JobId id, bool hold, Time now) {
  ArrayJob& a = arrays_.at(id.value());
  a.held = hold;
  if (!hold) a.prototype.eligible_since = now;  // age counts from release, as a job's
  for (JobId t : live_array_tasks(id)) {
    const JobRecord* j = job(t);
    if (hold && j->state == JobState::kPending) (void)this->hold(t);
    if (!hold && j->state == JobState::kHeld) (void)release(t, now);
  }
  return ok_status();
}

void Scheduler::uncount_array_tasks(const ArrayJob& a, std::int64_t n) {
  open_jobs_by_user_[a.prototype.spec.user] -= static_cast<std::int32_t>(n);
  open_jobs_by_partition_user_[partition_user_key(a.prototype.spec)] -= static_cast<std::int32_t>(n);
}

void Scheduler::array_task_ended(const JobRecord& j) {
  if (ArrayJob* a = array_holding(j.spec.id)) array_tasks_ended(*a, 1, j.state);
}

void Scheduler::array_tasks_ended(ArrayJob& a, std::int64_t n, JobState how) {
  a.ended += n;
  if (how != JobState::kCompleted) a.any_failed = true;
  if (a.ended < a.count()) return;
  const JobId id = a.id();
  ended_.record(id, a.outcome());
  auto node = arrays_.extract(id.value());
  ended_arrays_.push_back(std::move(node.mapped()));
}

}  // namespace fairway
