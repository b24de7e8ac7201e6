#include "coordinator/core/array_book.h"

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_map>

namespace fairway {

void ArrayBook::add(JobRecord prototype) {
  ArrayJob a;
  a.held = prototype.spec.hold;
  a.prototype = std::move(prototype);
  a.prototype.state = JobState::kPending;
  a.prototype.why = {};
  a.unsplit = TaskPositions(a.count());
  const std::uint64_t id = a.id().value();
  arrays_.emplace(id, std::move(a));
}

const ArrayJob* ArrayBook::find(JobId id) const {
  auto it = arrays_.find(id.value());
  return it == arrays_.end() ? nullptr : &it->second;
}

ArrayJob* ArrayBook::holding(JobId task) {
  auto it = arrays_.lower_bound(task.value());  // the first array at or above the id
  if (it == arrays_.begin()) return nullptr;
  --it;
  return it->second.holds_id(task) ? &it->second : nullptr;
}

const ArrayJob* ArrayBook::holding(JobId task) const {
  return const_cast<ArrayBook*>(this)->holding(task);
}

const ArrayJob* ArrayBook::unmade_holder(JobId task) const {
  const ArrayJob* a = holding(task);
  return a != nullptr && a->unsplit.contains(a->position_of(task)) ? a : nullptr;
}

std::optional<JobState> ArrayBook::state_of(JobId id) const {
  // An array is waiting until one of its tasks starts, running until all have ended.
  if (const ArrayJob* a = find(id)) return a->any_started ? JobState::kRunning : JobState::kPending;
  if (const ArrayJob* a = unmade_holder(id)) return a->held ? JobState::kHeld : JobState::kPending;
  return std::nullopt;
}

Result<std::int64_t> ArrayBook::jobs_added_by(const JobSpec& spec, std::int32_t max_array_size) const {
  if (!spec.array.empty()) {
    if (spec.array.max_index() >= max_array_size) {
      return invalid_argument("job " + std::to_string(spec.id.value()) + ": --array index " +
                              std::to_string(spec.array.max_index()) + " is over the largest allowed, " +
                              std::to_string(max_array_size - 1) + " (limits.max_array_size - 1)");
    }
    return spec.array.count();
  }
  if (spec.is_array_task() && unmade_holder(spec.id) != nullptr) return 0;
  return 1;
}

void ArrayBook::claim(JobId task) {
  if (ArrayJob* a = holding(task)) a->unsplit.erase(a->position_of(task));
}

JobRecord ArrayBook::make_task(const ArrayJob& a, std::int64_t position) {
  JobRecord rec = a.prototype;
  rec.spec.id = a.task_id(position);
  rec.spec.array_job = a.id();
  rec.spec.array_task = a.prototype.spec.array.index_at(position);
  rec.spec.array = {};
  rec.spec.hold = false;
  rec.state = JobState::kPending;
  return rec;
}

std::vector<JobRecord> ArrayBook::make_tasks(std::span<JobRecord* const> waiting,
                                             std::span<JobRecord* const> running, const ClusterState& cluster,
                                             std::int64_t reservations) {
  std::vector<JobRecord> made;
  if (arrays_.empty()) return made;
  // Each array's tasks that run or would start (its %limit counts them; a held one would
  // not), and those of them waiting to start (its planning window counts them).
  std::unordered_map<std::uint64_t, std::int64_t> live, queued;
  for (const JobRecord* j : waiting) {
    if (!j->spec.is_array_task() || (j->state != JobState::kPending && j->state != JobState::kBlocked))
      continue;
    ++live[j->spec.array_job.value()];
    ++queued[j->spec.array_job.value()];
  }
  for (const JobRecord* j : running) {
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
    const ResourceAmount free = cluster.partition(a.prototype.partition).free;
    std::int64_t fit = need.cores > 0 ? free.cores / need.cores : kMany;
    if (need.gpus > 0) fit = std::min(fit, free.gpus / need.gpus);
    if (need.memory_mb > 0) fit = std::min(fit, free.memory_mb / need.memory_mb);
    n = std::min(n, fit + reservations - queued[id]);
    for (std::int64_t i = 0; i < n; ++i) made.push_back(make_task(a, a.unsplit.take_front()));
    // What the tasks left unmade wait for, when it is the limit (else the made ones say).
    if (limit > 0 && live[id] + std::max<std::int64_t>(n, 0) >= limit && !a.unsplit.empty()) {
      a.prototype.why.add(PendingReason::kArrayTaskLimit);
    }
  }
  return made;
}

Result<ArrayBook::Split> ArrayBook::split(JobId array_id, std::int32_t index) {
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
  Split s{a.task_id(*pos), std::nullopt};
  if (!a.unsplit.erase(*pos)) return s;
  s.made = make_task(a, *pos);
  if (a.held) {
    s.made->state = JobState::kHeld;
    s.made->why.add(PendingReason::kHeld);
  }
  return s;
}

void ArrayBook::cancel(JobId id, EndedJobs& ended) {
  ArrayJob& a = arrays_.at(id.value());
  a.cancelled = true;
  const std::int64_t n = a.unsplit.size();
  a.unsplit.clear();
  if (n > 0) tasks_ended(a, n, JobState::kCancelled, ended);
}

void ArrayBook::set_held(JobId id, bool held, Time now) {
  ArrayJob& a = arrays_.at(id.value());
  a.held = held;
  if (!held) a.prototype.eligible_since = now;
}

void ArrayBook::task_started(JobId task) {
  if (ArrayJob* a = holding(task)) a->any_started = true;
}

void ArrayBook::task_ended(const JobRecord& task, EndedJobs& ended) {
  if (ArrayJob* a = holding(task.spec.id)) tasks_ended(*a, 1, task.state, ended);
}

void ArrayBook::unmade_task_ended(JobId task, JobState how, EndedJobs& ended) {
  ArrayJob* a = holding(task);
  if (a != nullptr && a->unsplit.erase(a->position_of(task))) tasks_ended(*a, 1, how, ended);
}

void ArrayBook::tasks_ended(ArrayJob& a, std::int64_t n, JobState how, EndedJobs& ended) {
  a.ended += n;
  if (how != JobState::kCompleted) a.any_failed = true;
  if (a.ended < a.count()) return;
  const JobId id = a.id();
  ended.record(id, a.outcome());
  auto node = arrays_.extract(id.value());
  ended_.push_back(std::move(node.mapped()));
}

}  // namespace fairway
