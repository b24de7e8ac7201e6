#include "coordinator/core/maxps_limit.h"

namespace fairway {
namespace {

double job_ps(const JobRecord& j) {
  return static_cast<double>(j.spec.time_limit.count()) *
         static_cast<double>(j.spec.resources.total_cores());
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

void MaxPsLimit::begin_pass(std::span<JobRecord* const> running,
                            std::span<JobRecord* const> eligible, Time now) {
  running_ps_.clear();
  for (const JobRecord* j : running) {
    const Duration left = j->estimated_end(now) - now;
    running_ps_[key(*j)] +=
        static_cast<double>(left.count()) * static_cast<double>(j->allocation.total_cores());
  }
  relaxed_ = true;
  for (const JobRecord* j : eligible) {
    const Limits l = limits_for(*j);
    if (!l.soft || owed(*j) <= *l.soft) {
      relaxed_ = false;
      break;
    }
  }
}

std::optional<PendingReason> MaxPsLimit::check(const JobRecord& j) const {
  const Limits l = limits_for(j);
  const double ps = owed(j);
  if (l.hard && ps > *l.hard) return PendingReason::kMaxPsHard;
  if (l.soft && ps > *l.soft && !relaxed_) return PendingReason::kMaxPsSoft;
  return std::nullopt;
}

void MaxPsLimit::on_start(const JobRecord& j) { running_ps_[key(j)] += job_ps(j); }

}  // namespace fairway
