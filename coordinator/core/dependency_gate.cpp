#include "coordinator/core/dependency_gate.h"

#include <algorithm>
#include <string>
#include <utility>

namespace fairway {

bool ready_to_consider(JobRecord& j, Time now, bool singleton_clear, const LiveJobState& live,
                       const EndedJobs& ended, std::vector<JobRecord*>& cancel_now) {
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
    switch (evaluate_dependencies(j.spec, live, ended, singleton_clear)) {
      case DependencyStatus::kSatisfied:
        break;
      case DependencyStatus::kWaiting:
        return defer(PendingReason::kDependency);
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

std::unordered_set<const JobRecord*> singletons_free_to_go(std::span<JobRecord* const> waiting,
                                                           std::span<JobRecord* const> running) {
  std::vector<const JobRecord*> singletons;
  for (const JobRecord* j : waiting) {
    if (!j->spec.dependencies.empty() && has_singleton(j->spec)) singletons.push_back(j);
  }
  std::unordered_set<const JobRecord*> clear;
  if (singletons.empty()) return clear;
  std::unordered_set<std::string> busy;
  for (const JobRecord* r : running) busy.insert(r->spec.user + '\0' + r->spec.name);
  std::sort(singletons.begin(), singletons.end(), [](const JobRecord* a, const JobRecord* b) {
    return std::pair(a->spec.submit_time, a->spec.id) < std::pair(b->spec.submit_time, b->spec.id);
  });
  for (const JobRecord* j : singletons) {
    if (busy.insert(j->spec.user + '\0' + j->spec.name).second) clear.insert(j);
  }
  return clear;
}

}  // namespace fairway
