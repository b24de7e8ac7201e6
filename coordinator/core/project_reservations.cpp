#include "coordinator/core/project_reservations.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "coordinator/core/billing_rate.h"
#include "coordinator/core/placement.h"
#include "shared/base/duration_format.h"

namespace fairway {
namespace {

std::string two_digits(std::int64_t v) {
  return (v < 10 ? "0" : "") + std::to_string(v);
}

// "2026-11-25T08:00:00Z", computed from the value (the core reads no clock or locale):
// days since 1970 to a civil date by the usual era arithmetic (400-year cycles).
std::string utc_text(Time t) {
  const std::int64_t secs = t.seconds();
  const std::int64_t days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
  const std::int64_t in_day = secs - days * 86400;
  const std::int64_t z = days + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const std::int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return std::to_string(year) + "-" + two_digits(month) + "-" + two_digits(day) + "T" +
         two_digits(in_day / 3600) + ":" + two_digits(in_day / 60 % 60) + ":" + two_digits(in_day % 60) + "Z";
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

ProjectReservations::ProjectReservations(const Config& config) {
  for (const ReservationConfig& r : config.reservations) {
    if (!r.project()) continue;
    ProjectReservationState st;
    st.name = r.name;
    st.account = r.account;
    st.users = r.users;
    st.cancel_below_use = r.cancel_below_use;
    st.cancel_after = r.cancel_after;
    st.start = r.start;
    st.end = r.end();
    states_.push_back(std::move(st));
  }
}

ProjectReservationState* ProjectReservations::find(const std::string& name) {
  for (ProjectReservationState& r : states_) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

const ProjectReservationState* ProjectReservations::find(const std::string& name) const {
  return const_cast<ProjectReservations*>(this)->find(name);
}

Status ProjectReservations::check_known(const std::string& name,
                                        const MaintenanceSchedule& maintenance) const {
  if (find(name) != nullptr) return ok_status();
  if (maintenance.find(name) != nullptr) {
    return invalid_argument("--reservation=" + name +
                            ": that reservation is a maintenance; no job runs in it");
  }
  std::vector<std::string> known;
  for (const ProjectReservationState& r : states_) known.push_back(r.name);
  return invalid_argument(
      "--reservation=" + name + ": no such reservation" +
      (known.empty() ? std::string(" (none is configured)") : " (reservations: " + join(known) + ")"));
}

Status ProjectReservations::check(const JobSpec& spec, PartitionIndex p, Time now,
                                  const MaintenanceSchedule& maintenance, const ClusterState& cluster) const {
  const std::string& name = spec.reservation;
  if (auto st = check_known(name, maintenance); !st) return st;
  const ProjectReservationState& r = *find(name);
  if (spec.account != r.account) {
    return make_error(ErrorCode::kPermissionDenied,
                      "--reservation=" + name + " is for account '" + r.account + "': submit with -A " +
                          r.account +
                          (spec.account.empty() ? std::string() : ", not '" + spec.account + "'"));
  }
  if (!r.users.empty() && std::find(r.users.begin(), r.users.end(), spec.user) == r.users.end()) {
    return make_error(ErrorCode::kPermissionDenied, "--reservation=" + name + ": user '" + spec.user +
                                                        "' is not one of its users (" + join(r.users) + ")");
  }
  if (r.cancelled_at) {
    return make_error(ErrorCode::kFailedPrecondition,
                      "--reservation=" + name + " was cancelled at " + utc_text(*r.cancelled_at) +
                          " (too little of it was in use); a new reservation must be requested");
  }
  if (now >= r.end) {
    return make_error(ErrorCode::kFailedPrecondition,
                      "--reservation=" + name + " ended at " + utc_text(r.end));
  }
  if (spec.time_limit > r.end - r.start) {
    return invalid_argument("time_limit " + format_walltime(spec.time_limit) +
                            " is longer than reservation '" + name + "' (" +
                            format_walltime(r.end - r.start) + "), so it could never run in it");
  }
  const MaintenanceWindow* w = maintenance.find(name);
  const PartitionState& ps = cluster.partition(p);
  if (w != nullptr) {
    std::int64_t cores = 0;
    for (NodeIndex n : ps.nodes)
      cores += maintenance.covers(*w, cluster, n) ? cluster.node(n).topology.total_cores() : 0;
    if (cores > 0 && spec.resources.total_cores() > cores) {
      return invalid_argument("requests " + std::to_string(spec.resources.total_cores()) +
                              " cores, more than reservation '" + name + "' holds in partition '" +
                              spec.partition + "' (" + std::to_string(cores) + ")");
    }
  }
  if (w != nullptr && !ps.nodes.empty() && std::none_of(ps.nodes.begin(), ps.nodes.end(), [&](NodeIndex n) {
        return maintenance.covers(*w, cluster, n);
      })) {
    return invalid_argument("partition '" + spec.partition + "' has none of reservation '" + name +
                            "''s nodes");
  }
  return ok_status();
}

bool ProjectReservations::pays_for(const std::string& name, Time now) const {
  const ProjectReservationState* r = find(name);
  return r != nullptr && !r->cancelled_at && now < r->end && now >= r->start;
}

Time ProjectReservations::charged_from(const std::string& name, Time start) const {
  const ProjectReservationState* r = find(name);
  if (r != nullptr && start >= r->start && start < r->effective_end()) return max(start, r->effective_end());
  return start;
}

std::vector<std::string> ProjectReservations::measure(ProjectReservationState& r, const MaintenanceWindow& w,
                                                      const MaintenanceSchedule& maintenance,
                                                      const ClusterState& cluster) {
  r.cores = 0;
  std::vector<std::string> gpu_types;
  for (NodeIndex n : maintenance.nodes(w, cluster)) {
    const NodeTopology& topo = cluster.node(n).topology;
    r.cores += topo.total_cores();
    for (const auto& g : topo.gpus) gpu_types.push_back(g.type);
  }
  return gpu_types;
}

AssociationIndex ProjectReservations::holder(ProjectReservationState& r, FairShareLedger& ledger) {
  if (!r.association) {
    const std::string holder = "reservation:" + r.name;
    r.association = ledger.association(r.account, holder);
    ledger.set_user_shares(r.account, holder, 0.0);
  }
  return *r.association;
}

void ProjectReservations::restore_cancelled(const std::string& name, Time at,
                                            MaintenanceSchedule& maintenance) {
  ProjectReservationState* r = find(name);
  if (r == nullptr || r->cancelled_at) return;
  r->cancelled_at = at;
  r->cancel_reason = "cancelled before the coordinator restarted (too little of it was in use)";
  maintenance.cancel(name, at);
}

std::vector<ReservationCharge> ProjectReservations::restored_charges(Time now,
                                                                     const MaintenanceSchedule& maintenance,
                                                                     const ClusterState& cluster,
                                                                     FairShareLedger& ledger,
                                                                     const BillingConfig& billing) {
  std::vector<ReservationCharge> charges;
  for (ProjectReservationState& r : states_) {
    if (r.start >= now) continue;
    const MaintenanceWindow* w = maintenance.find(r.name);
    if (w == nullptr) continue;
    r.rate = billing_rate(billing, r.cores, measure(r, *w, maintenance, cluster));
    charges.push_back({r.start, holder(r, ledger), r.rate});
    if (r.effective_end() <= now) {
      charges.push_back({r.effective_end(), *r.association, -r.rate});
    } else {
      r.charging = true;
    }
  }
  return charges;
}

// Before the pass: each reservation's charge, and whether it is given back. Its use was
// last looked at after the previous pass (observe_use); since only passes start jobs, it
// has not risen since, so "below since" still holds.
void ProjectReservations::advance(Time now, MaintenanceSchedule& maintenance, const ClusterState& cluster,
                                  FairShareLedger& ledger, const BillingConfig& billing,
                                  std::span<JobRecord* const> running,
                                  std::vector<ReservationCancellation>& cancelled) {
  for (ProjectReservationState& r : states_) {
    const MaintenanceWindow* w = maintenance.find(r.name);
    if (w == nullptr) continue;
    const std::vector<std::string> gpu_types = measure(r, *w, maintenance, cluster);
    const Time end = r.effective_end();
    if (!r.charging && now >= r.start && now < end) {
      // The rate is fixed while it is charged: the stop must take off what the start put on.
      r.rate = billing_rate(billing, r.cores, gpu_types);
      ledger.start_usage(holder(r, ledger), r.rate, now);
      r.charging = true;
    }
    if (r.charging && now >= end) {
      ledger.stop_usage(*r.association, r.rate, now);
      r.charging = false;
    }
    if (!r.charging || r.cancel_below_use <= 0.0 || !r.below_since) continue;
    if (now - *r.below_since < r.cancel_after) continue;
    // Given back: everyone may use its nodes from now on, and the account stops paying for
    // them. Its jobs still running finish there, charged as ordinary jobs from now.
    r.cancelled_at = now;
    maintenance.cancel(r.name, now);
    ledger.stop_usage(*r.association, r.rate, now);
    r.charging = false;
    for (JobRecord* j : running) {
      if (j->spec.reservation != r.name) continue;
      j->billing_rate = allocation_billing_rate(billing, cluster, j->allocation);
      ledger.start_usage(j->association, j->billing_rate, now);
    }
    const std::string pct = std::to_string(std::lround(r.cancel_below_use * 100.0)) + "%";
    r.cancel_reason = "under " + pct + " of its " + std::to_string(r.cores) + " cores in use since " +
                      utc_text(*r.below_since) + " (" + format_walltime(now - *r.below_since) +
                      ", the limit is " + format_walltime(r.cancel_after) + ")";
    cancelled.push_back({r.name, r.cancel_reason, now});
  }
}

// They take nothing from anyone else, so they hold no backfill reservations.
void ProjectReservations::start_jobs(std::span<JobRecord* const> members, Time now,
                                     const MaintenanceSchedule& maintenance, const ClusterState& cluster,
                                     const StartFn& start) const {
  for (JobRecord* j : members) {
    const ProjectReservationState* r = find(j->spec.reservation);
    const MaintenanceWindow* w = maintenance.find(j->spec.reservation);
    j->reserved_start.reset();
    j->reserved_at.reset();
    j->why = {};
    if (r == nullptr || w == nullptr || r->cancelled_at || now >= r->end) {
      j->why.add(PendingReason::kReservationDeleted);
      continue;
    }
    if (now < r->start || now + j->spec.time_limit > r->end) {
      j->why.add(PendingReason::kReservation);
      if (now < r->start) j->why.estimated_start = r->start;
      continue;
    }
    // Cheap first: is there that much free on its nodes at all?
    if (maintenance.free_in_partition(*w, cluster, j->partition).cores < j->spec.resources.total_cores()) {
      j->why.add(PendingReason::kResources);
      continue;
    }
    ClusterState inside = cluster;
    for (std::size_t i = 0; i < cluster.node_count(); ++i) {
      const NodeIndex n(static_cast<std::uint32_t>(i));
      bool usable = maintenance.covers(*w, cluster, n);
      // Another window (a maintenance) on the node before the job would end rules it out.
      for (const MaintenanceWindow& other : maintenance.windows()) {
        if (usable && other.name != w->name && other.start < now + j->spec.time_limit && other.end > now &&
            maintenance.covers(other, cluster, n)) {
          usable = false;
        }
      }
      if (!usable) inside.set_node_up(n, false);
    }
    auto alloc = place_job(inside, *j);
    if (!alloc) {
      j->why.add(PendingReason::kResources);
      continue;
    }
    start(*j, std::move(*alloc));
  }
}

// After the pass: what each reservation's jobs hold now, and since when that has been
// under its threshold.
void ProjectReservations::observe_use(Time now, std::span<JobRecord* const> running) {
  for (ProjectReservationState& r : states_) {
    r.cores_in_use = 0;
    for (const JobRecord* j : running) {
      if (j->spec.reservation == r.name) r.cores_in_use += j->allocation.total_cores();
    }
    if (!r.charging || r.cancel_below_use <= 0.0) {
      r.below_since.reset();
      continue;
    }
    const double threshold = r.cancel_below_use * static_cast<double>(r.cores);
    if (static_cast<double>(r.cores_in_use) >= threshold) {
      r.below_since.reset();
    } else if (!r.below_since) {
      r.below_since = now;
    }
  }
}

std::optional<Time> ProjectReservations::next_event(Time now) const {
  std::optional<Time> next;
  auto consider = [&](Time t) {
    if (t > now) next = next ? min(*next, t) : t;
  };
  for (const ProjectReservationState& r : states_) {
    if (r.cancelled_at) continue;
    consider(r.start);
    consider(r.end);
    if (r.below_since) consider(*r.below_since + r.cancel_after);
  }
  return next;
}

}  // namespace fairway
