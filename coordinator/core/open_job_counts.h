// The jobs each user has open (pending, blocked, held or running), overall and per
// partition: what limits.max_submitted_jobs_per_user and partitions.max_jobs_per_user count.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "shared/model/job_spec.h"

namespace fairway {

// An array counts all its tasks from its admission (as Slurm's MaxSubmitJobs); they leave
// the counts one by one as they end.
class OpenJobCounts {
 public:
  // `n` more of spec.user's jobs in spec.partition are open (fewer when negative).
  void add(const JobSpec& spec, std::int64_t n) {
    by_user_[spec.user] += static_cast<std::int32_t>(n);
    by_partition_user_[partition_user_key(spec)] += static_cast<std::int32_t>(n);
  }
  std::int32_t of_user(const std::string& user) const {
    const auto it = by_user_.find(user);
    return it == by_user_.end() ? 0 : it->second;
  }
  std::int32_t in_partition(const JobSpec& spec) const {
    const auto it = by_partition_user_.find(partition_user_key(spec));
    return it == by_partition_user_.end() ? 0 : it->second;
  }

 private:
  static std::string partition_user_key(const JobSpec& spec) {
    std::string key = spec.partition;
    key.push_back('\0');
    return key + spec.user;
  }
  std::unordered_map<std::string, std::int32_t> by_user_;
  std::unordered_map<std::string, std::int32_t> by_partition_user_;  // "partition\0user"
};

}  // namespace fairway
