#include "client/fairway/usage_report.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <ostream>

#include <nlohmann/json.hpp>

#include "client/fairway/history_command.h"
#include "client/views/text_format.h"

namespace fairway::cli {
namespace {

struct Usage {
  std::int64_t jobs = 0;
  double core_hours = 0;
  double gpu_hours = 0;
};

std::string hours(double h) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", h);
  return buf;
}

// The first instant of the month `now` falls in, local time: sreport's usual period.
Time month_start(Time now) {
  const std::time_t t = static_cast<std::time_t>(now.seconds());
  std::tm tm{};
  localtime_r(&t, &tm);
  tm.tm_mday = 1;
  tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
  tm.tm_isdst = -1;
  return Time::from_seconds(static_cast<std::int64_t>(std::mktime(&tm)));
}

}  // namespace

int run_usage_report(const ReportOptions& o, Time now, const Transport& transport, const Output& io) {
  auto window = parse_history_window(o.start, o.end, now);
  if (!window) return report_error(io, window.error().message, kExitUsage);
  const Time from = window->from.value_or(month_start(now));
  const Time to = window->to.value_or(now);
  if (!(from < to)) {
    return report_error(io,
                        "report: the period is empty (" + format_local_time(from) + " is not before " +
                            format_local_time(to) + ")",
                        kExitUsage);
  }
  wire::JobQuery q;
  q.from_store = true;
  q.include_finished = true;
  q.user = o.user;
  q.account = o.account;
  q.ended_after = from;  // a job that ended before the period used none of it
  auto reply = ask_all_pages(q, transport, io);
  if (!reply) return kExitFailure;
  io.out << render_usage_report(*reply, from, to, o.parsable, o.json);
  return kExitOk;
}

std::string render_usage_report(const wire::JobQueryReply& reply, Time from, Time to, bool parsable,
                                bool json) {
  std::map<std::string, Usage> by_account;
  std::map<std::pair<std::string, std::string>, Usage> by_user;
  for (const auto& j : reply.jobs) {
    if (!j.start_time || !j.end_time) continue;  // never ran
    // A run that touches the period counts as a job there, if only for an instant.
    if (*j.end_time < from || to < *j.start_time) continue;
    const Time a = max(*j.start_time, from), b = max(a, min(*j.end_time, to));
    const double h = static_cast<double>((b - a).count()) / 3600.0;
    std::int64_t cores = 0, gpus = 0;
    for (const auto& n : j.allocation) {
      cores += static_cast<std::int64_t>(n.cores.size());
      gpus += static_cast<std::int64_t>(n.gpus.size());
    }
    for (Usage* u : {&by_account[j.account], &by_user[{j.account, j.user}]}) {
      ++u->jobs;
      u->core_hours += h * static_cast<double>(cores);
      u->gpu_hours += h * static_cast<double>(gpus);
    }
  }
  if (json) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& [account, u] : by_account) {
      rows.push_back({{"account", account},
                      {"user", nullptr},
                      {"jobs", u.jobs},
                      {"core_hours", u.core_hours},
                      {"gpu_hours", u.gpu_hours}});
      for (const auto& [key, uu] : by_user) {
        if (key.first != account) continue;
        rows.push_back({{"account", account},
                        {"user", key.second},
                        {"jobs", uu.jobs},
                        {"core_hours", uu.core_hours},
                        {"gpu_hours", uu.gpu_hours}});
      }
    }
    return nlohmann::ordered_json{{"from", from.seconds()}, {"to", to.seconds()}, {"usage", rows}}.dump(2) +
           "\n";
  }
  const std::vector<std::string> header = {"Account", "User", "Jobs", "CoreHours", "GPUHours"};
  std::vector<std::vector<std::string>> rows;
  for (const auto& [account, u] : by_account) {
    rows.push_back({account, "", std::to_string(u.jobs), hours(u.core_hours), hours(u.gpu_hours)});
    for (const auto& [key, uu] : by_user) {
      if (key.first != account) continue;
      rows.push_back(
          {account, key.second, std::to_string(uu.jobs), hours(uu.core_hours), hours(uu.gpu_hours)});
    }
  }
  std::string out;
  if (parsable) {
    out = join(header, "|") + "\n";
    for (const auto& r : rows) out += join(r, "|") + "\n";
    return out;
  }
  return "Usage of finished jobs " + format_local_time(from) + " - " + format_local_time(to) +
         " (each run clipped to the period)\n" + render_table(header, rows);
}

}  // namespace fairway::cli
