// Fair-share accounting: usage per account and per user within an account (decayed by a
// half-life, or exactly within a sliding window), and the factors priority feeds on:
// Slurm-classic 2^(-usage share / fair share) or Fair Tree's rank (fair_tree.cpp).
// Not thread-safe; owned by the Scheduler. Pure: time comes in as arguments.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "coordinator/core/decayed_usage.h"
#include "coordinator/core/period_usage.h"
#include "coordinator/core/windowed_usage.h"
#include "shared/base/time.h"

namespace fairway {

// An association: one user charging one account.
using AssociationIndex = std::uint32_t;

class FairShareLedger {
 public:
  // `window` set: usage is what ran within it (fading linearly over it with
  // `window_fades`), and half_life is unused.
  explicit FairShareLedger(Duration half_life = Duration::days(14),
                           std::optional<Duration> window = std::nullopt, bool window_fades = false,
                           CalendarPeriod allocation_period = CalendarPeriod::kNone);

  void set_account_shares(const std::string& account, double shares);
  void set_user_shares(const std::string& account, const std::string& user, double shares);
  // Finds or creates the (account, user) association; new ones get 1 share.
  AssociationIndex association(const std::string& account, const std::string& user);

  // A running job's consumption rate in billing units per second.
  void start_usage(AssociationIndex a, double units_per_second, Time now);
  void stop_usage(AssociationIndex a, double units_per_second, Time now);

  double user_usage(AssociationIndex a, Time now) const;
  double account_usage(AssociationIndex a, Time now) const;
  double total_usage(Time now) const;
  // What the association's account used since its allocation period began (all time
  // without a period), neither decayed nor windowed: what allocation overuse compares
  // with the account's allocation.
  double account_allocation_usage(AssociationIndex a, Time now) const;

  // Normalised share of the machine promised to the association (account share of all
  // accounts times user share within the account), in (0, 1].
  double normalized_shares(AssociationIndex a) const;
  // 2^(-U/S): 1 for no use, 0.5 at exactly the fair share, toward 0 above it.
  double factor(AssociationIndex a, Time now) const;
  // Titan-style: minutes of apparent waiting for being under (positive) or over
  // (negative) the user and account targets, in percent of all recent usage.
  double target_share_minutes(AssociationIndex a, Time now, double user_target_percent,
                              double user_minutes_per_percent, double account_target_percent,
                              double account_minutes_per_percent) const;

  // Slurm's Fair Tree: accounts ranked by level fair-share (share of sibling shares over
  // share of sibling usage), then users within each account likewise, depth first; the
  // k-th user of n visited gets (n - k + 1) / n. Users of tied accounts are merged; users
  // tied on both levels share the better rank.
  // One factor per association, indexed by AssociationIndex.
  std::vector<double> fair_tree_factors(Time now) const;

  // Shares as configured: the association's account among all accounts, and the user
  // within that account; and the account's part of the machine, in (0, 1].
  double account_shares(AssociationIndex a) const { return accounts_[associations_[a].account].shares; }
  double user_shares(AssociationIndex a) const { return associations_[a].shares; }
  double account_normalized_shares(AssociationIndex a) const;

  const std::string& account_name(AssociationIndex a) const;
  const std::string& user_name(AssociationIndex a) const;
  std::size_t association_count() const { return associations_.size(); }

 private:
  // One of the two is used, as the ledger was built.
  struct Usage {
    DecayedUsage decayed;
    WindowedUsage windowed;
  };
  struct Account {
    std::string name;
    double shares = 1;
    double user_shares_total = 0;
    Usage usage;
    PeriodUsage allocation_usage;
  };
  struct Association {
    std::uint32_t account;
    std::string user;
    double shares = 1;
    Usage usage;
  };
  std::uint32_t account_index(const std::string& name);
  double value(const Usage& u, Time now) const;
  void add_rate(Usage& u, Time now, double delta) const;

  double lambda_;
  std::optional<Duration> window_;
  bool window_fades_ = false;
  CalendarPeriod allocation_period_ = CalendarPeriod::kNone;
  double account_shares_total_ = 0;
  std::vector<Account> accounts_;
  std::vector<Association> associations_;
  std::unordered_map<std::string, std::uint32_t> account_by_name_;
  std::unordered_map<std::string, AssociationIndex> association_by_key_;
  Usage total_;
};

}  // namespace fairway
