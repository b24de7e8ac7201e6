#include "coordinator/daemon/reservation_report.h"

#include <algorithm>

namespace fairway::daemon {
namespace {

std::string state_at(Time now, Time start, Time end, bool cancelled) {
  if (cancelled) return "cancelled";
  if (now < start) return "waiting";
  return now < end ? "active" : "ended";
}

}  // namespace

Result<wire::ReservationQueryReply> reservation_report(const Scheduler& scheduler,
                                                       const wire::ReservationQuery& q, Time now) {
  const auto& all = scheduler.config().reservations;
  for (const std::string& name : q.names) {
    if (std::none_of(all.begin(), all.end(), [&](const ReservationConfig& r) { return r.name == name; })) {
      std::string known;
      for (const ReservationConfig& r : all) known += (known.empty() ? "" : ", ") + r.name;
      return make_error(ErrorCode::kNotFound, "reservation '" + name + "' does not exist" +
                                                  (known.empty() ? std::string(" (none is configured)")
                                                                 : " (reservations: " + known + ")"));
    }
  }
  wire::ReservationQueryReply reply;
  reply.now = now;
  for (const ReservationConfig& r : all) {
    if (!q.names.empty() && std::find(q.names.begin(), q.names.end(), r.name) == q.names.end()) continue;
    wire::ReservationView v;
    v.name = r.name;
    v.kind = r.project() ? "project" : "maintenance";
    v.start = r.start;
    v.end = r.end();
    v.nodes = r.all_nodes ? std::vector<std::string>{"ALL"} : r.nodes;
    v.state = state_at(now, r.start, r.end(), false);
    if (r.project()) {
      v.account = r.account;
      v.users = r.users;
      v.cancel_below_use = r.cancel_below_use;
      v.cancel_after = r.cancel_after;
      for (const ProjectReservationState& p : scheduler.project_reservations()) {
        if (p.name != r.name) continue;
        v.cancelled_at = p.cancelled_at;
        v.cancel_reason = p.cancel_reason;
        v.cores = p.cores;
        v.cores_in_use = p.cores_in_use;
        v.below_since = p.below_since;
        v.state = state_at(now, r.start, r.end(), p.cancelled_at.has_value());
      }
      for (const JobRecord* j : scheduler.waiting()) v.jobs_pending += j->spec.reservation == r.name ? 1 : 0;
      for (const JobRecord* j : scheduler.running()) v.jobs_running += j->spec.reservation == r.name ? 1 : 0;
    }
    reply.reservations.push_back(std::move(v));
  }
  return reply;
}

}  // namespace fairway::daemon
