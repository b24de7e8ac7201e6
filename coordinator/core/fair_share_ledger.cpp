#include "coordinator/core/fair_share_ledger.h"

#include <cmath>

namespace fairway {

FairShareLedger::FairShareLedger(Duration half_life, std::optional<Duration> window, bool window_fades,
                                 CalendarPeriod allocation_period)
    : lambda_(half_life.is_infinite() || half_life.count() <= 0
                  ? 0.0
                  : std::log(2.0) / static_cast<double>(half_life.count())),
      window_(window),
      window_fades_(window_fades),
      allocation_period_(allocation_period) {}

double FairShareLedger::value(const Usage& u, Time now) const {
  if (!window_) return u.decayed.value_at(now, lambda_);
  return window_fades_ ? u.windowed.linear_value_at(now, *window_) : u.windowed.value_at(now, *window_);
}

void FairShareLedger::add_rate(Usage& u, Time now, double delta) const {
  if (window_) {
    u.windowed.add_rate(now, delta, *window_);
  } else {
    u.decayed.add_rate(now, delta, lambda_);
  }
}

std::uint32_t FairShareLedger::account_index(const std::string& name) {
  auto it = account_by_name_.find(name);
  if (it != account_by_name_.end()) return it->second;
  const auto idx = static_cast<std::uint32_t>(accounts_.size());
  accounts_.push_back(Account{name, 1.0, 0.0, {}, {}});
  account_shares_total_ += 1.0;
  account_by_name_.emplace(name, idx);
  return idx;
}

void FairShareLedger::set_account_shares(const std::string& account, double shares) {
  Account& acct = accounts_[account_index(account)];
  account_shares_total_ += shares - acct.shares;
  acct.shares = shares;
}

AssociationIndex FairShareLedger::association(const std::string& account, const std::string& user) {
  std::string key = account;
  key.push_back('\0');
  key += user;
  auto it = association_by_key_.find(key);
  if (it != association_by_key_.end()) return it->second;
  const std::uint32_t acct = account_index(account);
  const auto idx = static_cast<AssociationIndex>(associations_.size());
  associations_.push_back(Association{acct, user, 1.0, {}});
  accounts_[acct].user_shares_total += 1.0;
  association_by_key_.emplace(std::move(key), idx);
  return idx;
}

void FairShareLedger::set_user_shares(const std::string& account, const std::string& user, double shares) {
  Association& a = associations_[association(account, user)];
  accounts_[a.account].user_shares_total += shares - a.shares;
  a.shares = shares;
}

void FairShareLedger::start_usage(AssociationIndex a, double units_per_second, Time now) {
  Association& as = associations_[a];
  add_rate(as.usage, now, units_per_second);
  Account& acct = accounts_[as.account];
  add_rate(acct.usage, now, units_per_second);
  acct.allocation_usage.add_rate(now, units_per_second, allocation_period_);
  add_rate(total_, now, units_per_second);
}

void FairShareLedger::stop_usage(AssociationIndex a, double units_per_second, Time now) {
  start_usage(a, -units_per_second, now);
}

double FairShareLedger::user_usage(AssociationIndex a, Time now) const {
  return value(associations_[a].usage, now);
}

double FairShareLedger::account_usage(AssociationIndex a, Time now) const {
  return value(accounts_[associations_[a].account].usage, now);
}

double FairShareLedger::total_usage(Time now) const {
  return value(total_, now);
}

double FairShareLedger::account_allocation_usage(AssociationIndex a, Time now) const {
  return accounts_[associations_[a].account].allocation_usage.value_at(now, allocation_period_);
}

double FairShareLedger::account_normalized_shares(AssociationIndex a) const {
  const Account& acct = accounts_[associations_[a].account];
  return account_shares_total_ > 0 ? acct.shares / account_shares_total_ : 1.0;
}

double FairShareLedger::normalized_shares(AssociationIndex a) const {
  const Association& as = associations_[a];
  const Account& acct = accounts_[as.account];
  const double account_part = account_normalized_shares(a);
  const double user_part = acct.user_shares_total > 0 ? as.shares / acct.user_shares_total : 1.0;
  return account_part * user_part;
}

double FairShareLedger::factor(AssociationIndex a, Time now) const {
  const double total = total_usage(now);
  if (total <= 0) return 1.0;
  const double usage_share = user_usage(a, now) / total;
  const double shares = normalized_shares(a);
  if (shares <= 0) return 0.0;
  return std::exp2(-usage_share / shares);
}

double FairShareLedger::target_share_minutes(AssociationIndex a, Time now, double user_target_percent,
                                             double user_minutes_per_percent, double account_target_percent,
                                             double account_minutes_per_percent) const {
  const double total = total_usage(now);
  const double user_pct = total > 0 ? 100.0 * user_usage(a, now) / total : 0.0;
  const double account_pct = total > 0 ? 100.0 * account_usage(a, now) / total : 0.0;
  return (user_target_percent - user_pct) * user_minutes_per_percent +
         (account_target_percent - account_pct) * account_minutes_per_percent;
}

const std::string& FairShareLedger::account_name(AssociationIndex a) const {
  return accounts_[associations_[a].account].name;
}

const std::string& FairShareLedger::user_name(AssociationIndex a) const {
  return associations_[a].user;
}

}  // namespace fairway
