// Splits the priority-ordered queue into the jobs the scheduler may consider and the jobs
// a count limit holds back (Maui's idle and blocked parts of the queue, seed 002).
// Stateless between passes; pure.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "coordinator/core/job_record.h"
#include "shared/config/config.h"

namespace fairway {

class EligibilityLimits {
 public:
  explicit EligibilityLimits(const LimitsConfig& limits) : limits_(limits) {}

  // A limit that forbids a job to start now whatever else runs (MAXPS hard).
  using HoldFn = std::function<std::optional<PendingReason>(const JobRecord&)>;

  // `ordered`: pending or blocked jobs, highest priority first. Returns the eligible ones
  // in the same order; every other job is set blocked with the limits that hold it. With
  // count limits set (Maui's idle queue), a job `held` forbids is blocked and takes no
  // idle slot: seed 002, "if a job is not allowed to start because it currently breaks
  // the policy rules, it is put in the blocked part of the queue".
  std::vector<JobRecord*> filter(std::span<JobRecord* const> ordered, std::span<JobRecord* const> running,
                                 const HoldFn& held = {}) const;

 private:
  const LimitsConfig& limits_;
};

}  // namespace fairway
