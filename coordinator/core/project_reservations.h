// Project reservations (Titan, seed 000) as the scheduling core keeps them: who may submit
// into one, its charge to the account, its give-back under low use, and starting its own jobs.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "coordinator/core/cluster_state.h"
#include "coordinator/core/fair_share_ledger.h"
#include "coordinator/core/job_record.h"
#include "coordinator/core/maintenance_schedule.h"
#include "shared/base/result.h"
#include "shared/config/config.h"

namespace fairway {

// A project reservation given back before its end: under its use threshold too long.
struct ReservationCancellation {
  std::string name;
  std::string reason;
  Time at;
};

// A project reservation as the core tracks it: charged from its start to its end or
// cancellation, watched for low use.
struct ProjectReservationState {
  std::string name;
  std::string account;
  std::vector<std::string> users;  // empty: every user of the account
  double cancel_below_use = 0.0;
  Duration cancel_after;
  Time start, end;  // end: the configured one
  std::optional<Time> cancelled_at;
  std::string cancel_reason;
  // Charged to (account, "reservation:NAME"), an association of no shares, so the
  // account's usage carries it without moving its users' shares.
  std::optional<AssociationIndex> association;
  double rate = 0.0;  // billing units per second while charged
  bool charging = false;
  std::optional<Time> below_since;  // use under the threshold since then
  std::int64_t cores = 0;           // of its nodes the cluster knows
  std::int64_t cores_in_use = 0;    // by its jobs, at the last pass
  Time effective_end() const { return cancelled_at ? min(*cancelled_at, end) : end; }
};

// A change of a reservation's charge replayed after a restart: + at its start, - at its end.
struct ReservationCharge {
  Time at;
  AssociationIndex association;
  double rate;
};

// The reservations' nodes are a window of the maintenance schedule, which everyone else
// plans around; this class owns what is particular to a project reservation. The machine,
// the schedule and the ledger stay the scheduler's and are passed in.
class ProjectReservations {
 public:
  ProjectReservations() = default;
  // Every reservation of config.reservations that is for a project.
  explicit ProjectReservations(const Config& config);
  bool empty() const { return states_.empty(); }
  std::span<const ProjectReservationState> all() const { return states_; }
  const ProjectReservationState* find(const std::string& name) const;

  // Whether `spec` (in partition `p`) may submit into spec.reservation now: its account and
  // user, the reservation still open and long enough, and its nodes in the partition.
  Status check(const JobSpec& spec, PartitionIndex p, Time now, const MaintenanceSchedule& maintenance,
               const ClusterState& cluster) const;
  // A job accepted into `name` keeps its place across a restart, whatever happened to the
  // reservation since (it then waits as ReservationDeleted): only that it is one is checked.
  Status check_known(const std::string& name, const MaintenanceSchedule& maintenance) const;
  // A job of reservation `name` starting at `now` is paid for by the reservation's charge.
  bool pays_for(const std::string& name, Time now) const;
  // Where a run of `name` that started at `start` is charged from: past the reservation's
  // end or cancellation when it began inside it (the reservation paid until then).
  Time charged_from(const std::string& name, Time start) const;

  // Before a pass: each reservation's charge starts or stops, and one under its use
  // threshold for cancel_after is given back (`cancelled` says why): its running jobs are
  // charged as ordinary jobs from then.
  void advance(Time now, MaintenanceSchedule& maintenance, const ClusterState& cluster,
               FairShareLedger& ledger, const BillingConfig& billing, std::span<JobRecord* const> running,
               std::vector<ReservationCancellation>& cancelled);
  // The reservations' own jobs, best first: `start` each that fits on its reservation's
  // nodes now and ends before the reservation does; the others get their pending reason.
  using StartFn = std::function<void(JobRecord&, Allocation)>;
  void start_jobs(std::span<JobRecord* const> members, Time now, const MaintenanceSchedule& maintenance,
                  const ClusterState& cluster, const StartFn& start) const;
  // After a pass: the cores each reservation's jobs hold, and since when under its threshold.
  void observe_use(Time now, std::span<JobRecord* const> running);
  // When a reservation begins, ends or runs out of patience next, after `now`.
  std::optional<Time> next_event(Time now) const;

  // After a restart: a reservation the coordinator had cancelled stays cancelled.
  void restore_cancelled(const std::string& name, Time at, MaintenanceSchedule& maintenance);
  // ... and those that began before `now` are charged again from their start: the changes
  // to replay, in no particular order.
  std::vector<ReservationCharge> restored_charges(Time now, const MaintenanceSchedule& maintenance,
                                                  const ClusterState& cluster, FairShareLedger& ledger,
                                                  const BillingConfig& billing);

 private:
  ProjectReservationState* find(const std::string& name);
  // Sets r.cores from its nodes the cluster knows; returns their GPUs' types (for billing).
  static std::vector<std::string> measure(ProjectReservationState& r, const MaintenanceWindow& w,
                                          const MaintenanceSchedule& maintenance,
                                          const ClusterState& cluster);
  // The association its charge goes to, made on first use: (account, "reservation:NAME"),
  // with no shares, so the account's usage carries it without moving its users' shares.
  static AssociationIndex holder(ProjectReservationState& r, FairShareLedger& ledger);

  std::vector<ProjectReservationState> states_;
};

}  // namespace fairway
