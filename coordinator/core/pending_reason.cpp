#include "coordinator/core/pending_reason.h"

#include <array>

namespace fairway {
namespace {

struct ReasonInfo {
  PendingReason reason;
  std::string_view code;
  std::string_view text;
};

constexpr auto kReasons = std::to_array<ReasonInfo>({
    {PendingReason::kHeld, "Held", "held; release it to let it run"},
    {PendingReason::kResources, "Resources", "not enough free cores or GPUs in the partition now"},
    {PendingReason::kPriority, "Priority", "higher-priority jobs are waiting for the same resources"},
    {PendingReason::kReservationConflict, "ReservationConflict",
     "resources are free now, but running would delay a job that holds a reservation"},
    {PendingReason::kFragmented, "Fragmented",
     "enough is free in total, but not on nodes that can hold the request"},
    {PendingReason::kStrictOrder, "StrictOrder",
     "backfill is off and a higher-priority job is still waiting"},
    {PendingReason::kNeverFits, "NeverFits", "the partition can never hold this request"},
    {PendingReason::kUserEligibleLimit, "UserEligibleLimit",
     "the user already has the most eligible (idle) jobs allowed; blocked until one starts"},
    {PendingReason::kAccountEligibleLimit, "AccountEligibleLimit",
     "the account already has the most eligible (idle) jobs allowed; blocked until one starts"},
    {PendingReason::kUserActiveLimit, "UserActiveLimit",
     "the user's running and eligible jobs are at the limit; blocked until one ends"},
    {PendingReason::kMaxPsSoft, "MaxPsSoft",
     "remaining walltime x cores of running jobs plus this job exceed the soft MAXPS"},
    {PendingReason::kMaxPsHard, "MaxPsHard",
     "remaining walltime x cores of running jobs plus this job exceed the hard MAXPS"},
    {PendingReason::kBinRunningLimit, "BinRunningLimit",
     "the user already runs the most jobs allowed in this job's node-count bin"},
    {PendingReason::kOveruseRunningLimit, "OveruseRunningLimit",
     "the account is over its allocation and already runs the most jobs its overuse tier allows"},
    {PendingReason::kBackfillUserLimit, "BackfillUserLimit",
     "not considered: the backfill loop already looked at the most jobs of this user "
     "(scheduler.backfill_max_jobs_per_user)"},
    {PendingReason::kBackfillPartitionLimit, "BackfillPartitionLimit",
     "not considered: the backfill loop already looked at the most jobs of this partition "
     "(scheduler.backfill_max_jobs_per_partition)"},
    {PendingReason::kPreempting, "Preempting",
     "lower-tier jobs on its nodes are being stopped for it; it starts once their nodes "
     "confirm their cores free"},
    {PendingReason::kDependency, "Dependency", "waits for the jobs named in its --dependency"},
    {PendingReason::kDependencyNeverSatisfied, "DependencyNeverSatisfied",
     "its --dependency can never be met (a job it needs ended the wrong way); cancel it, "
     "or submit with --kill-on-invalid-dep=yes to have such jobs cancelled"},
    {PendingReason::kBeginTime, "BeginTime", "its --begin time has not come yet"},
    {PendingReason::kReservation, "Reservation",
     "waits for its --reservation: it has not begun, or too little of it is left for the "
     "job's time limit"},
    {PendingReason::kReservationDeleted, "ReservationDeleted",
     "its --reservation ended or was cancelled, so it cannot start; cancel it, or submit "
     "again without --reservation"},
    {PendingReason::kArrayTaskLimit, "JobArrayTaskLimit",
     "its array already has as many tasks running as its --array %limit allows"},
    {PendingReason::kMaintenance, "ReqNodeNotAvail_Maintenance",
     "its nodes are reserved (a maintenance, or a project reservation it is not in) before it "
     "could finish (or, in a killable partition, the reservation is under way or within "
     "killable_cutoff)"},
});

}  // namespace

std::string_view reason_code(PendingReason r) {
  for (const auto& i : kReasons) {
    if (i.reason == r) return i.code;
  }
  return "Unknown";
}

std::string_view reason_text(PendingReason r) {
  for (const auto& i : kReasons) {
    if (i.reason == r) return i.text;
  }
  return "unknown";
}

std::vector<PendingReason> PendingExplanation::list() const {
  std::vector<PendingReason> out;
  for (const auto& i : kReasons) {
    if (has(i.reason)) out.push_back(i.reason);
  }
  return out;
}

std::string PendingExplanation::codes() const {
  std::string s;
  for (PendingReason r : list()) {
    if (!s.empty()) s += ',';
    s += reason_code(r);
  }
  return s.empty() ? "None" : s;
}

}  // namespace fairway
