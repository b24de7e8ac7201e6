// Slurm's Fair Tree ranking (FairShareLedger::fair_tree_factors). Accounts sit directly
// under the root and users directly under their account: a two-level tree.
#include <algorithm>
#include <limits>
#include <numeric>

#include "coordinator/core/fair_share_ledger.h"

namespace fairway {
namespace {

// Shares over usage, both as fractions of their siblings'; no usage ranks first.
double level_fair_share(double shares, double sibling_shares, double usage, double sibling_usage) {
  const double s = sibling_shares > 0 ? shares / sibling_shares : 0.0;
  const double u = sibling_usage > 0 ? usage / sibling_usage : 0.0;
  if (u <= 0) return std::numeric_limits<double>::infinity();
  return s / u;
}

}  // namespace

std::vector<double> FairShareLedger::fair_tree_factors(Time now) const {
  const std::size_t n = associations_.size();
  std::vector<double> factors(n, 0.0);
  if (n == 0) return factors;
  const double total = total_usage(now);
  std::vector<double> account_lf(accounts_.size());
  std::vector<double> account_used(accounts_.size());
  for (std::size_t i = 0; i < accounts_.size(); ++i) {
    account_used[i] = value(accounts_[i].usage, now);
    account_lf[i] = level_fair_share(accounts_[i].shares, account_shares_total_, account_used[i], total);
  }
  std::vector<double> user_lf(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Association& as = associations_[i];
    const Account& acct = accounts_[as.account];
    user_lf[i] =
        level_fair_share(as.shares, acct.user_shares_total, value(as.usage, now), account_used[as.account]);
  }
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  // Depth first: the better account's users all come before the worse account's. As in
  // Slurm, the users of tied accounts are merged and sorted together.
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const double la = account_lf[associations_[a].account];
    const double lb = account_lf[associations_[b].account];
    if (la != lb) return la > lb;
    if (user_lf[a] != user_lf[b]) return user_lf[a] > user_lf[b];
    return a < b;
  });
  const double users = static_cast<double>(n);
  std::size_t rank_start = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t cur = order[k];
    if (k > 0) {
      const std::size_t prev = order[k - 1];
      const bool tied = account_lf[associations_[prev].account] == account_lf[associations_[cur].account] &&
                        user_lf[prev] == user_lf[cur];
      if (!tied) rank_start = k;
    }
    factors[cur] = (users - static_cast<double>(rank_start)) / users;
  }
  return factors;
}

}  // namespace fairway
