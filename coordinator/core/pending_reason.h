// Why a waiting job is not running: every reason that applies, not just the first, so a
// user can see what would have to change for the job to start.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shared/base/time.h"

namespace fairway {

enum class PendingReason : std::uint32_t {
  kHeld = 1u << 0,                       // held by user or admin
  kResources = 1u << 1,                  // not enough free cores/GPUs in the partition now
  kPriority = 1u << 2,                   // higher-priority jobs wait for the same resources
  kReservationConflict = 1u << 3,        // free now, but running would delay a reserved job
  kFragmented = 1u << 4,                 // enough free in total, not on suitable nodes
  kStrictOrder = 1u << 5,                // backfill is off and a higher-priority job waits
  kNeverFits = 1u << 6,                  // larger than the partition can ever hold
  kUserEligibleLimit = 1u << 7,          // the user already has max_eligible_jobs_per_user eligible
  kAccountEligibleLimit = 1u << 8,       // likewise for the account
  kUserActiveLimit = 1u << 9,            // running + eligible jobs at max_active_jobs_per_user
  kMaxPsSoft = 1u << 10,                 // running processor-seconds + this job exceed MAXPS soft
  kMaxPsHard = 1u << 11,                 // ... exceed MAXPS hard: never, whatever else waits
  kBinRunningLimit = 1u << 12,           // the user runs the node bin's max_running_jobs_per_user
  kOveruseRunningLimit = 1u << 13,       // the account is over its allocation and runs its tier's cap
  kBackfillUserLimit = 1u << 14,         // the backfill loop looked at its per-user cap of jobs
  kBackfillPartitionLimit = 1u << 15,    // ... at its per-partition cap of jobs
  kPreempting = 1u << 16,                // lower-tier jobs on its nodes are being stopped for it
  kDependency = 1u << 17,                // its --dependency does not hold yet
  kDependencyNeverSatisfied = 1u << 18,  // ... and never will (kept, as Slurm keeps it)
  kBeginTime = 1u << 19,                 // its --begin time has not come
  kReservation = 1u << 20,               // its --reservation has not begun, or too little is left
  kReservationDeleted = 1u << 21,        // its --reservation ended or was cancelled
  kArrayTaskLimit = 1u << 22,            // its array runs as many tasks as its %limit allows
  // A maintenance reservation on its nodes starts before it could finish (killable: is
  // under way or within the partition's killable_cutoff). A high bit, clear of the
  // reasons other work adds next.
  kMaintenance = 1u << 24,
};

// Slurm-style short code ("Resources", "Priority", ...) and a sentence for users.
std::string_view reason_code(PendingReason r);
std::string_view reason_text(PendingReason r);

struct PendingExplanation {
  std::uint32_t reasons = 0;            // bit set of PendingReason
  std::optional<Time> estimated_start;  // set when the job holds a reservation

  void add(PendingReason r) { reasons |= static_cast<std::uint32_t>(r); }
  bool has(PendingReason r) const { return (reasons & static_cast<std::uint32_t>(r)) != 0; }
  std::vector<PendingReason> list() const;
  // Comma-separated codes, "None" when empty: the REASON column of `fairway queue`.
  std::string codes() const;
};

}  // namespace fairway
