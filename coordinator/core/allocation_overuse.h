// Titan's allocation overuse policy (seed 000): which overuse tier an account is in, from
// its usage in the current allocation period (FairShareLedger) against its [[accounts]]
// allocation. The tier's
// penalty feeds priority and its running cap RunningCaps. Immutable after construction.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "shared/config/config.h"

namespace fairway {

class AllocationOveruse {
 public:
  explicit AllocationOveruse(const Config& config);

  bool enabled() const { return !tiers_.empty() && !allocation_units_.empty(); }
  // Percent of the account's allocation used; none when the account has no allocation.
  // `used_units`: billing units (billing-unit-seconds), as the ledger counts them.
  std::optional<double> percent_used(const std::string& account, double used_units) const;
  // The highest tier whose min_percent the account has reached, if any.
  std::optional<std::size_t> tier(const std::string& account, double used_units) const;
  const OveruseTierConfig& tier_config(std::size_t i) const { return tiers_[i]; }

 private:
  std::vector<OveruseTierConfig> tiers_;
  std::unordered_map<std::string, double> allocation_units_;  // hours x 3600
};

}  // namespace fairway
