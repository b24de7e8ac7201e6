#include "coordinator/core/maxps_limit.h"

#include <algorithm>
#include <cmath>

namespace fairway {
namespace {

double job_ps(const JobRecord& j) {
  return static_cast<double>(j.spec.time_limit.count()) * static_cast<double>(j.spec.resources.total_cores());
}

}  // namespace

MaxPsLimit::MaxPsLimit(const LimitsConfig& limits, const std::vector<AccountConfig>& accounts)
    : scope_(limits.maxps_scope), default_soft_(limits.maxps_soft), default_hard_(limits.maxps_hard) {
  for (const auto& a : accounts) {
    if (a.maxps_soft || a.maxps_hard) per_account_[a.name] = {a.maxps_soft, a.maxps_hard};
  }
}

const std::string& MaxPsLimit::key(const JobRecord& j) const {
  return scope_ == LimitScope::kUser ? j.spec.user : j.spec.account;
}

std::optional<double> MaxPsLimit::hard_limit(const std::string& account) const {
  if (auto it = per_account_.find(account); it != per_account_.end() && it->second.hard) {
    return it->second.hard;
  }
  return default_hard_;
}

MaxPsLimit::Limits MaxPsLimit::limits_for(const JobRecord& j) const {
  Limits l{default_soft_, default_hard_};
  if (auto it = per_account_.find(j.spec.account); it != per_account_.end()) {
    if (it->second.soft) l.soft = it->second.soft;
    if (it->second.hard) l.hard = it->second.hard;
  }
  return l;
}

double MaxPsLimit::owed(const JobRecord& j) const {
  auto it = running_ps_.find(key(j));
  return (it == running_ps_.end() ? 0.0 : it->second) + job_ps(j);
}

void MaxPsLimit::begin_pass(std::span<JobRecord* const> running, std::span<JobRecord* const> eligible,
                            Time now) {
  count_running(running, now);
  relaxed_ = true;
  for (const JobRecord* j : eligible) {
    const Limits l = limits_for(*j);
    if (!l.soft || owed(*j) <= *l.soft) {
      relaxed_ = false;
      break;
    }
  }
}

void MaxPsLimit::count_running(std::span<JobRecord* const> running, Time now) {
  running_ps_.clear();
  running_jobs_.clear();
  for (const JobRecord* j : running) {
    const Duration left = j->estimated_end(now) - now;
    const double cores = static_cast<double>(j->allocation.total_cores());
    running_ps_[key(*j)] += static_cast<double>(left.count()) * cores;
    running_jobs_[key(*j)].push_back({left.count(), cores});
  }
}

std::optional<PendingReason> MaxPsLimit::check_hard(const JobRecord& j) const {
  const Limits l = limits_for(j);
  if (l.hard && owed(j) > *l.hard) return PendingReason::kMaxPsHard;
  return std::nullopt;
}

std::optional<PendingReason> MaxPsLimit::check(const JobRecord& j) const {
  const Limits l = limits_for(j);
  const double ps = owed(j);
  if (l.hard && ps > *l.hard) return PendingReason::kMaxPsHard;
  if (l.soft && ps > *l.soft && !relaxed_) return PendingReason::kMaxPsSoft;
  return std::nullopt;
}

void MaxPsLimit::on_start(const JobRecord& j) {
  running_ps_[key(j)] += job_ps(j);
  running_jobs_[key(j)].push_back(
      {j.spec.time_limit.count(), static_cast<double>(j.spec.resources.total_cores())});
}

std::optional<Time> MaxPsLimit::release_time(const JobRecord& j, Time now) const {
  const Limits l = limits_for(j);
  const double ps = owed(j);
  std::optional<double> limit;
  if (l.hard && ps > *l.hard) {
    limit = l.hard;
  } else if (l.soft && ps > *l.soft && !relaxed_) {
    limit = l.soft;
  }
  auto it = running_jobs_.find(key(j));
  if (!limit || it == running_jobs_.end()) return std::nullopt;
  // After d seconds the scope owes sum(cores x max(1, left - d)) (begin_pass counts an
  // overdue job as one second from its end): a floor of one second per job that only an
  // end removes, plus sum(cores x max(0, left - 1 - d)), which decays piecewise linearly.
  std::vector<Owing> jobs = it->second;
  std::sort(jobs.begin(), jobs.end(), [](const Owing& a, const Owing& b) { return a.left_s < b.left_s; });
  double floor = 0.0, decaying = 0.0, active = 0.0;
  for (const Owing& o : jobs) {
    floor += o.cores;
    decaying += o.cores * static_cast<double>(o.left_s - 1);
    active += o.cores;
  }
  const double budget = *limit - job_ps(j) - floor;
  if (budget < 0.0) return std::nullopt;  // only a job's end can bring it under
  std::int64_t at = 0;
  std::size_t i = 0;
  while (true) {
    while (i < jobs.size() && jobs[i].left_s - 1 <= at) active -= jobs[i++].cores;
    if (decaying <= budget) return now + Duration::seconds(at);
    if (i == jobs.size()) return std::nullopt;  // nothing decays: unreachable while held
    const std::int64_t next = jobs[i].left_s - 1;
    const double at_next = decaying - active * static_cast<double>(next - at);
    if (at_next <= budget) {
      return now + Duration::seconds(at + static_cast<std::int64_t>(std::ceil((decaying - budget) / active)));
    }
    decaying = at_next;
    at = next;
  }
}

std::optional<Time> MaxPsLimit::earliest_release(std::span<JobRecord* const> waiting, Time now) const {
  std::optional<Time> earliest;
  for (const JobRecord* j : waiting) {
    if (j->state != JobState::kPending && j->state != JobState::kBlocked) continue;
    if (!j->why.has(PendingReason::kMaxPsSoft) && !j->why.has(PendingReason::kMaxPsHard)) continue;
    if (auto t = release_time(*j, now); t && (!earliest || *t < *earliest)) earliest = t;
  }
  return earliest;
}

}  // namespace fairway
