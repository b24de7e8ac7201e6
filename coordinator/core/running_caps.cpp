#include "coordinator/core/running_caps.h"

namespace fairway {

RunningCaps::RunningCaps(const Config& config) : config_(config) {
  for (const auto& b : config.node_bins) enabled_ = enabled_ || b.max_running_jobs_per_user.has_value();
  for (const auto& t : config.allocation_overuse) enabled_ = enabled_ || t.max_running_jobs.has_value();
}

std::string RunningCaps::bin_user_key(std::size_t bin, const std::string& user) {
  std::string key = std::to_string(bin);
  key.push_back('\0');
  return key + user;
}

void RunningCaps::begin_pass(std::span<JobRecord* const> running) {
  running_by_bin_user_.clear();
  running_by_account_.clear();
  for (const JobRecord* j : running) on_start(*j);
}

std::optional<PendingReason> RunningCaps::check(const JobRecord& j) const {
  if (j.node_bin) {
    if (const auto& cap = config_.node_bins[*j.node_bin].max_running_jobs_per_user) {
      auto it = running_by_bin_user_.find(bin_user_key(*j.node_bin, j.spec.user));
      if (it != running_by_bin_user_.end() && it->second >= *cap) return PendingReason::kBinRunningLimit;
    }
  }
  if (j.overuse_tier) {
    if (const auto& cap = config_.allocation_overuse[*j.overuse_tier].max_running_jobs) {
      auto it = running_by_account_.find(j.spec.account);
      if (it != running_by_account_.end() && it->second >= *cap) return PendingReason::kOveruseRunningLimit;
    }
  }
  return std::nullopt;
}

void RunningCaps::on_start(const JobRecord& j) {
  if (j.node_bin) ++running_by_bin_user_[bin_user_key(*j.node_bin, j.spec.user)];
  ++running_by_account_[j.spec.account];
}

}  // namespace fairway
