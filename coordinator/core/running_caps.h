// Caps on running jobs that hold a job back at start time, like MAXPS: Titan's per-user
// cap in a node-count bin (2 in bin 5) and the overuse tier's per-account cap (1 above
// 125 % of the allocation). A capped job waits without a reservation. Not thread-safe;
// one per scheduler, counts rebuilt each pass. Pure.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <unordered_map>

#include "coordinator/core/job_record.h"
#include "shared/config/config.h"

namespace fairway {

class RunningCaps {
 public:
  explicit RunningCaps(const Config& config);

  // False when no bin and no overuse tier caps anything: the scheduler skips the gate.
  bool enabled() const { return enabled_; }
  // Counts the running jobs; uses their node_bin and account.
  void begin_pass(std::span<JobRecord* const> running);
  // The cap that forbids starting `j` now, if any; reads j.node_bin and j.overuse_tier.
  std::optional<PendingReason> check(const JobRecord& j) const;
  void on_start(const JobRecord& j);

 private:
  static std::string bin_user_key(std::size_t bin, const std::string& user);

  const Config& config_;
  bool enabled_ = false;
  std::unordered_map<std::string, std::int32_t> running_by_bin_user_;
  std::unordered_map<std::string, std::int32_t> running_by_account_;
};

}  // namespace fairway
