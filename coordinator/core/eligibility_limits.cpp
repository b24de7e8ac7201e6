#include "coordinator/core/eligibility_limits.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace fairway {

std::vector<JobRecord*> EligibilityLimits::filter(std::span<JobRecord* const> ordered,
                                                  std::span<JobRecord* const> running,
                                                  const HoldFn& held) const {
  std::vector<JobRecord*> eligible;
  eligible.reserve(ordered.size());
  const LimitsConfig& l = limits_;
  const bool any =
      l.max_eligible_jobs_per_user || l.max_eligible_jobs_per_account || l.max_active_jobs_per_user;
  if (!any) {
    for (JobRecord* j : ordered) {
      j->state = JobState::kPending;
      eligible.push_back(j);
    }
    return eligible;
  }
  std::unordered_map<std::string, std::int32_t> user_eligible, account_eligible, user_active;
  for (const JobRecord* j : running) ++user_active[j->spec.user];
  // Takes an idle slot for `j` if the caps allow; otherwise sets it blocked with the limits.
  auto admit = [&](JobRecord* j) {
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
      return false;
    }
    ++ue;
    ++ae;
    ++ua;
    j->state = JobState::kPending;
    return true;
  };
  if (l.promote_blocked == BlockedPromotion::kPriority) {
    for (JobRecord* j : ordered) {
      if (admit(j)) eligible.push_back(j);
    }
    return eligible;
  }
  // kNewest, in the seed's steps: jobs idle since an earlier pass keep their slots
  // (priority order); a new job is "put in the correct part of the queue" on arrival
  // (oldest first); then the newest blocked jobs are "upgraded" into what is left.
  std::vector<JobRecord*> arrived, blocked;
  std::unordered_map<const JobRecord*, bool> admitted;
  for (JobRecord* j : ordered) {
    if (j->idle_since) {
      admitted[j] = admit(j);
    } else {
      (j->state == JobState::kBlocked ? blocked : arrived).push_back(j);
    }
  }
  auto by_submission = [](const JobRecord* a, const JobRecord* b) {
    if (a->spec.submit_time != b->spec.submit_time) return a->spec.submit_time < b->spec.submit_time;
    return a->spec.id < b->spec.id;
  };
  std::sort(arrived.begin(), arrived.end(), by_submission);
  std::sort(blocked.begin(), blocked.end(),
            [&](const JobRecord* a, const JobRecord* b) { return by_submission(b, a); });
  for (JobRecord* j : arrived) admitted[j] = admit(j);
  for (JobRecord* j : blocked) admitted[j] = admit(j);
  for (JobRecord* j : ordered) {
    if (admitted[j]) eligible.push_back(j);
  }
  return eligible;
}

}  // namespace fairway
