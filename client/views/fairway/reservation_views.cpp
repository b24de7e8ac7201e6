#include "client/views/fairway/reservation_views.h"

#include <cmath>
#include <ostream>

#include <nlohmann/json.hpp>

#include "client/views/text_format.h"
#include "shared/base/duration_format.h"
#include "shared/config/hostlist.h"

namespace fairway::cli {

int run_show_reservation(const std::vector<std::string>& names, bool json, const Transport& transport,
                         const Output& io) {
  auto reply = ask<wire::ReservationQueryReply>(wire::ReservationQuery{names}, transport, io);
  if (!reply) return kExitFailure;
  if (json) {
    io.out << reservations_json(*reply);
    return kExitOk;
  }
  if (reply->reservations.empty()) io.out << "No reservations in the system\n";
  for (std::size_t i = 0; i < reply->reservations.size(); ++i) {
    if (i > 0) io.out << "\n";
    io.out << render_reservation_detail(reply->reservations[i], reply->now);
  }
  return kExitOk;
}

std::string render_reservation_detail(const wire::ReservationView& r, Time now) {
  std::string out;
  const auto line = [&](std::string_view key, const std::string& value) {
    out += std::string(key) + ": " + value + "\n";
  };
  line("ReservationName", r.name);
  line("Kind", r.kind);
  line("State", r.state);
  line("StartTime", format_local_time(r.start));
  line("EndTime", format_local_time(r.end));
  line("Duration", format_walltime(r.end - r.start));
  line("Nodes", r.nodes.size() == 1 && r.nodes[0] == "ALL" ? "ALL" : compress_hostlist(r.nodes));
  if (r.kind != "project") return out;
  line("Account", r.account);
  line("Users", r.users.empty() ? "(every user of the account)" : join(r.users, ","));
  line("Cores", std::to_string(r.cores_in_use) + "/" + std::to_string(r.cores) + " in use by its jobs");
  line("Jobs", std::to_string(r.jobs_pending) + " waiting, " + std::to_string(r.jobs_running) + " running");
  if (r.cancel_below_use > 0) {
    line("CancelBelow", std::to_string(std::lround(r.cancel_below_use * 100.0)) + "% of its cores for " +
                            format_walltime(r.cancel_after));
    if (r.below_since && !r.cancelled_at) {
      line("BelowSince", format_local_time(*r.below_since) + " (cancelled at " +
                             format_local_time(*r.below_since + r.cancel_after) + " unless use rises; now " +
                             format_local_time(now) + ")");
    }
  } else {
    line("CancelBelow", "(never cancelled for low use)");
  }
  if (r.cancelled_at) line("CancelledAt", format_local_time(*r.cancelled_at) + ": " + r.cancel_reason);
  return out;
}

std::string reservations_json(const wire::ReservationQueryReply& reply) {
  using Json = nlohmann::ordered_json;
  Json list = Json::array();
  const auto time_or_null = [](const std::optional<Time>& t) {
    return t ? Json(t->seconds()) : Json(nullptr);
  };
  for (const auto& r : reply.reservations) {
    list.push_back({{"name", r.name},
                    {"kind", r.kind},
                    {"state", r.state},
                    {"start", r.start.seconds()},
                    {"end", r.end.seconds()},
                    {"nodes", r.nodes},
                    {"account", r.account},
                    {"users", r.users},
                    {"cores", r.cores},
                    {"cores_in_use", r.cores_in_use},
                    {"jobs_pending", r.jobs_pending},
                    {"jobs_running", r.jobs_running},
                    {"cancel_below_use", r.cancel_below_use},
                    {"cancel_after", r.cancel_after.count()},
                    {"below_since", time_or_null(r.below_since)},
                    {"cancelled_at", time_or_null(r.cancelled_at)},
                    {"cancel_reason", r.cancel_reason}});
  }
  return Json{{"now", reply.now.seconds()}, {"reservations", list}}.dump(2) + "\n";
}

}  // namespace fairway::cli
