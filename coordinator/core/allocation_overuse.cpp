#include "coordinator/core/allocation_overuse.h"

namespace fairway {

AllocationOveruse::AllocationOveruse(const Config& config) : tiers_(config.allocation_overuse) {
  for (const auto& a : config.accounts) {
    if (a.allocation) allocation_units_[a.name] = *a.allocation * 3600.0;
  }
}

std::optional<double> AllocationOveruse::percent_used(const std::string& account, double used_units) const {
  auto it = allocation_units_.find(account);
  if (it == allocation_units_.end()) return std::nullopt;
  return 100.0 * used_units / it->second;  // allocation > 0: the config parser checks
}

std::optional<std::size_t> AllocationOveruse::tier(const std::string& account, double used_units) const {
  const auto pct = percent_used(account, used_units);
  if (!pct) return std::nullopt;
  std::optional<std::size_t> found;
  for (std::size_t i = 0; i < tiers_.size(); ++i) {
    if (*pct >= tiers_[i].min_percent) found = i;
  }
  return found;
}

}  // namespace fairway
