// Splits the priority-ordered queue into the jobs the scheduler may consider and the jobs
// a count limit holds back (Maui's idle and blocked parts of the queue, seed 002).
// Stateless between passes; pure.
#pragma once

#include <span>
#include <vector>

#include "coordinator/core/job_record.h"
#include "shared/config/config.h"

namespace fairway {

class EligibilityLimits {
 public:
  explicit EligibilityLimits(const LimitsConfig& limits) : limits_(limits) {}

  // `ordered`: pending or blocked jobs, highest priority first. Returns the eligible ones
  // in the same order; every other job is set blocked with the limits that hold it.
  std::vector<JobRecord*> filter(std::span<JobRecord* const> ordered,
                                 std::span<JobRecord* const> running) const;

 private:
  const LimitsConfig& limits_;
};

}  // namespace fairway
