// The Scheduler's part in sbatch --begin and --dependency: whether a waiting job may be
// considered by a pass at all, and the outcomes of ended jobs that dependencies name.
#include <algorithm>
#include <string>
#include <unordered_set>

#include "coordinator/core/scheduler.h"

namespace fairway {

std::optional<JobState> Scheduler::state_of(JobId id) const {
  const JobRecord* r = job(id);
  if (r != nullptr) return r->state;
  return arrays_.state_of(id);
}

void Scheduler::restore_outcome(JobId id, JobState final_state) {
  if (!is_terminal(final_state)) return;
  // A task that ended before the restart: its array holds it no more.
  if (const ArrayJob* a = arrays_.unmade_holder(id)) {
    open_jobs_.add(a->prototype.spec, -1);  // the array counted it
    arrays_.unmade_task_ended(id, final_state, ended_);
  }
  ended_.record(id, final_state);
}

bool Scheduler::ready_to_consider(JobRecord& j, Time now, bool singleton_clear,
                                  std::vector<JobRecord*>& cancel_now) {
  const auto defer = [&](PendingReason why) {
    j.why = PendingExplanation{};
    j.why.add(why);
    j.reserved_start.reset();
    j.idle_since.reset();
    j.deferred = true;
    return false;
  };
  if (j.spec.begin && *j.spec.begin > now) return defer(PendingReason::kBeginTime);
  if (!j.spec.dependencies.empty()) {
    const LiveJobState live = [this](JobId id) { return state_of(id); };
    switch (evaluate_dependencies(j.spec, live, ended_, singleton_clear)) {
      case DependencyStatus::kSatisfied: break;
      case DependencyStatus::kWaiting: return defer(PendingReason::kDependency);
      case DependencyStatus::kNeverSatisfied:
        if (j.spec.kill_on_invalid_dep) cancel_now.push_back(&j);
        return defer(PendingReason::kDependencyNeverSatisfied);
    }
  }
  if (j.deferred) {
    // Age counts from when it could first run, as Slurm's eligible time.
    j.deferred = false;
    j.eligible_since = max(j.eligible_since, now);
  }
  return true;
}

std::unordered_set<const JobRecord*> Scheduler::singletons_free_to_go() const {
  std::vector<const JobRecord*> singletons;
  for (const JobRecord* j : waiting_) {
    if (!j->spec.dependencies.empty() && has_singleton(j->spec)) singletons.push_back(j);
  }
  std::unordered_set<const JobRecord*> clear;
  if (singletons.empty()) return clear;
  std::unordered_set<std::string> busy;
  for (const JobRecord* r : running_) busy.insert(r->spec.user + '\0' + r->spec.name);
  std::sort(singletons.begin(), singletons.end(), [](const JobRecord* a, const JobRecord* b) {
    return std::pair(a->spec.submit_time, a->spec.id) < std::pair(b->spec.submit_time, b->spec.id);
  });
  for (const JobRecord* j : singletons) {
    if (busy.insert(j->spec.user + '\0' + j->spec.name).second) clear.insert(j);
  }
  return clear;
}

}  // namespace fairway
