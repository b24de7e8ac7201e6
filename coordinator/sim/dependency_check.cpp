#include "coordinator/sim/dependency_check.h"

#include "coordinator/sim/check_text.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>

namespace fairway::sim {
namespace {

std::unexpected<Error> violation(std::string message) {
  return std::unexpected(Error{ErrorCode::kFailedPrecondition, "schedule check: " + std::move(message)});
}

using check_text::job;
std::string at(Time t) {
  return "t=" + std::to_string(t.seconds());
}

// What the schedule says of one job: its first start and its final record.
struct Runs {
  std::optional<Time> first_start;
  const ScheduleRecord* final_record = nullptr;
};

// When a clause held (nullopt: never, by the end of the schedule).
std::optional<Time> clause_holds_from(const DependencyClause& c,
                                      const std::unordered_map<std::uint64_t, Runs>& runs) {
  Time latest = Time::from_seconds(std::numeric_limits<std::int64_t>::min());
  for (JobId id : c.jobs) {
    const auto it = runs.find(id.value());
    if (it == runs.end()) return std::nullopt;
    const Runs& r = it->second;
    std::optional<Time> from;
    if (c.type == DependencyType::kAfter) {
      from = r.first_start;
      if (!from && r.final_record != nullptr) from = r.final_record->end;
    } else if (r.final_record != nullptr) {
      const bool ok = r.final_record->state == JobState::kCompleted;
      const bool wanted = c.type == DependencyType::kAfterAny || (c.type == DependencyType::kAfterOk && ok) ||
                          (c.type == DependencyType::kAfterNotOk && !ok);
      if (wanted) from = r.final_record->end;
    }
    if (!from) return std::nullopt;
    latest = max(latest, *from);
  }
  return latest;
}

}  // namespace

Status check_dependencies(const DependencyCheckInput& in) {
  std::unordered_map<std::uint64_t, Runs> runs;
  for (const ScheduleRecord& r : in.records) {
    Runs& x = runs[r.id.value()];
    // A job cancelled while waiting has a record but never ran.
    const bool ran = !r.allocation.empty();
    if (ran && (!x.first_start || r.start < *x.first_start)) x.first_start = r.start;
    if (!r.preempted) x.final_record = &r;
  }
  // A dependency on a job array reads all its tasks, as the coordinator does: `after` from
  // the first task's start, the others once every task has its final record (afterok: all
  // completed).
  std::unordered_map<std::uint64_t, std::int64_t> tasks_of;
  for (const WorkloadJob& w : in.workload.jobs) {
    if (w.spec.is_array_task()) ++tasks_of[w.spec.array_job.value()];
  }
  std::vector<ScheduleRecord> array_ends;
  array_ends.reserve(tasks_of.size());  // pointed at by runs: never reallocated
  for (const auto& [array, count] : tasks_of) {
    Runs whole;
    std::int64_t ended = 0;
    bool all_ok = true;
    Time last_end = Time::from_seconds(std::numeric_limits<std::int64_t>::min());
    for (std::int64_t k = 1; k <= count; ++k) {
      const auto it = runs.find(array + static_cast<std::uint64_t>(k));
      if (it == runs.end()) continue;
      const Runs& task = it->second;
      if (task.first_start && (!whole.first_start || *task.first_start < *whole.first_start)) {
        whole.first_start = task.first_start;
      }
      if (task.final_record == nullptr) continue;
      ++ended;
      all_ok = all_ok && task.final_record->state == JobState::kCompleted;
      last_end = max(last_end, task.final_record->end);
    }
    if (ended == count) {
      ScheduleRecord& r = array_ends.emplace_back();
      r.id = JobId(array);
      r.end = last_end;
      r.state = all_ok ? JobState::kCompleted : JobState::kFailed;
      whole.final_record = &r;
    }
    runs[array] = whole;
  }
  // Singletons: the runs of each user and name.
  std::unordered_map<std::string, std::vector<const ScheduleRecord*>> by_name;
  bool any_singleton = false;
  for (const WorkloadJob& w : in.workload.jobs) {
    for (const DependencyClause& c : w.spec.dependencies)
      any_singleton |= c.type == DependencyType::kSingleton;
  }
  std::unordered_map<std::uint64_t, const JobSpec*> spec_of;
  if (any_singleton) {
    for (const WorkloadJob& w : in.workload.jobs) spec_of[w.spec.id.value()] = &w.spec;
    for (const ScheduleRecord& r : in.records) {
      const JobSpec* s = spec_of[r.id.value()];
      if (s != nullptr) by_name[s->user + '\0' + s->name].push_back(&r);
    }
  }

  for (std::size_t w = 0; w < in.workload.jobs.size(); ++w) {
    const JobSpec& spec = in.workload.jobs[w].spec;
    if (in.rejected[w] || (spec.dependencies.empty() && !spec.begin)) continue;
    const auto mine = runs.find(spec.id.value());
    bool ran = false;
    Time started;
    if (mine != runs.end() && mine->second.first_start) {
      ran = true;
      started = *mine->second.first_start;
    }
    if (ran && spec.begin && started < *spec.begin) {
      return violation(job(spec.id) + " started at " + at(started) + ", before its --begin " +
                       at(*spec.begin));
    }
    if (spec.dependencies.empty()) continue;
    // When the dependency as a whole held (nullopt: never).
    std::optional<Time> held;
    bool singleton_only_blocks = false;
    for (const DependencyClause& c : spec.dependencies) {
      std::optional<Time> from;
      if (c.type == DependencyType::kSingleton) {
        from = Time::from_seconds(std::numeric_limits<std::int64_t>::min());
        singleton_only_blocks = true;
      } else {
        from = clause_holds_from(c, runs);
      }
      if (spec.dependency_any) {
        if (from) held = held ? min(*held, *from) : *from;
      } else {
        if (!from) {
          held.reset();
          break;
        }
        held = held ? max(*held, *from) : *from;
      }
    }
    if (!ran) {
      // Not running it is right when the dependency never held; a singleton may simply
      // have had its turn after the trace ended.
      if (held && !singleton_only_blocks) {
        if (mine != runs.end() && mine->second.final_record != nullptr &&
            mine->second.final_record->state == JobState::kCancelled &&
            mine->second.final_record->end <= *held) {
          continue;  // cancelled before it could have run
        }
        return violation(job(spec.id) + " never ran, but its dependency held from " + at(*held));
      }
      continue;
    }
    if (!held)
      return violation(job(spec.id) + " started at " + at(started) + " but its dependency never held");
    if (started < *held) {
      return violation(job(spec.id) + " started at " + at(started) + ", before its dependency held at " +
                       at(*held));
    }
    for (const DependencyClause& c : spec.dependencies) {
      if (c.type != DependencyType::kSingleton) continue;
      for (const ScheduleRecord* other : by_name[spec.user + '\0' + spec.name]) {
        if (other->id == spec.id) continue;
        if (other->start < started && started < other->end) {
          return violation(job(spec.id) + " (singleton) started at " + at(started) + " while " +
                           job(other->id) + " of the same user and name ran until " + at(other->end));
        }
      }
    }
  }
  return ok_status();
}

}  // namespace fairway::sim
