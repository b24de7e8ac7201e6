#include "coordinator/core/eligibility_limits.h"

#include <string>
#include <unordered_map>

namespace fairway {

std::vector<JobRecord*> EligibilityLimits::filter(std::span<JobRecord* const> ordered,
                                                  std::span<JobRecord* const> running,
                                                  const HoldFn& held) const {
  std::vector<JobRecord*> eligible;
  eligible.reserve(ordered.size());
  const LimitsConfig& l = limits_;
  const bool any = l.max_eligible_jobs_per_user || l.max_eligible_jobs_per_account ||
                   l.max_active_jobs_per_user;
  if (!any) {
    for (JobRecord* j : ordered) {
      j->state = JobState::kPending;
      eligible.push_back(j);
    }
    return eligible;
  }
  std::unordered_map<std::string, std::int32_t> user_eligible, account_eligible, user_active;
  for (const JobRecord* j : running) ++user_active[j->spec.user];
  for (JobRecord* j : ordered) {
    PendingExplanation blocked;
    std::int32_t& ue = user_eligible[j->spec.user];
    std::int32_t& ae = account_eligible[j->spec.account];
    std::int32_t& ua = user_active[j->spec.user];
    if (l.max_eligible_jobs_per_user && ue >= *l.max_eligible_jobs_per_user) {
      blocked.add(PendingReason::kUserEligibleLimit);
    }
    if (l.max_eligible_jobs_per_account && ae >= *l.max_eligible_jobs_per_account) {
      blocked.add(PendingReason::kAccountEligibleLimit);
    }
    if (l.max_active_jobs_per_user && ua >= *l.max_active_jobs_per_user) {
      blocked.add(PendingReason::kUserActiveLimit);
    }
    if (held) {
      if (auto reason = held(*j)) blocked.add(*reason);
    }
    if (blocked.reasons != 0) {
      j->state = JobState::kBlocked;
      j->why = blocked;
      j->reserved_start.reset();
      j->reserved_at.reset();
      continue;
    }
    ++ue;
    ++ae;
    ++ua;
    j->state = JobState::kPending;
    eligible.push_back(j);
  }
  return eligible;
}

}  // namespace fairway
