#include "client/views/slurm/showq_view.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "client/views/fairway/job_views.h"
#include "client/views/text_format.h"

namespace fairway::cli {
namespace {

// Maui's walltimes: H:MM:SS, and D:HH:MM:SS past a day.
std::string maui_time(Duration d) {
  std::int64_t s = std::max<std::int64_t>(d.count(), 0);
  const std::int64_t days = s / 86400;
  s %= 86400;
  char buf[48];
  if (days > 0) {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld:%02lld", static_cast<long long>(days),
                  static_cast<long long>(s / 3600), static_cast<long long>(s / 60 % 60),
                  static_cast<long long>(s % 60));
  } else {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                  static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
  }
  return buf;
}

std::string limit_text(Duration d) {
  return d.is_infinite() ? "INFINITY" : maui_time(d);
}

// "Thu Mar 24 10:50:09", as Maui prints times.
std::string maui_date(Time t) {
  const std::time_t tt = static_cast<std::time_t>(t.seconds());
  std::tm tm{};
  localtime_r(&tt, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a %b %d %H:%M:%S", &tm);
  return buf;
}

bool has_reason(const wire::JobView& j, std::string_view r) {
  return std::find(j.reasons.begin(), j.reasons.end(), r) != j.reasons.end();
}

// Why a waiting job is blocked, as Maui names it; empty: it is idle (eligible).
std::string blocked_state(const wire::JobView& j) {
  if (j.state == JobState::kHeld) return "Hold";
  if (j.state == JobState::kBlocked) return "Idle";
  if (has_reason(j, "Dependency") || has_reason(j, "DependencyNeverSatisfied") ||
      has_reason(j, "BeginTime")) {
    return "Deferred";
  }
  return {};
}

std::string percent(std::int64_t part, std::int64_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "(%.2f%%)",
                whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

std::string plural(std::size_t n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

}  // namespace

std::string render_showq(const wire::JobQueryReply& reply, const wire::NodeQueryReply& nodes) {
  std::vector<const wire::JobView*> active, idle, blocked;
  for (const auto& j : reply.jobs) {
    if (j.state == JobState::kRunning || j.state == JobState::kCompleting) {
      active.push_back(&j);
    } else if (is_waiting(j.state)) {
      (blocked_state(j).empty() ? idle : blocked).push_back(&j);
    }
  }
  const auto remaining = [&](const wire::JobView* j) {
    if (j->time_limit.is_infinite() || !j->start_time) return Duration::infinite();
    return j->time_limit - (reply.now - *j->start_time);
  };
  std::stable_sort(active.begin(), active.end(),
                   [&](const auto* a, const auto* b) { return remaining(a) < remaining(b); });
  const auto by_priority = [](const auto* a, const auto* b) {
    return a->priority != b->priority ? a->priority > b->priority : a->id < b->id;
  };
  std::stable_sort(idle.begin(), idle.end(), by_priority);
  std::stable_sort(blocked.begin(), blocked.end(), by_priority);

  std::string out = "ACTIVE JOBS--------------------\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto* j : active) {
    const Duration left = remaining(j);
    rows.push_back({std::to_string(j->id.value()), j->user, "Running", std::to_string(job_cores(*j)),
                    left.is_infinite() ? "INFINITY" : maui_time(left),
                    j->start_time ? maui_date(*j->start_time) : ""});
  }
  out += render_table({"JOBNAME", "USERNAME", "STATE", "PROC", "REMAINING", "STARTTIME"}, rows) + "\n";
  std::int64_t cores = 0, cores_used = 0, busy_nodes = 0;
  for (const auto& n : nodes.nodes) {
    cores += n.cores;
    cores_used += n.cores_used;
    busy_nodes += n.cores_used > 0 || n.gpus_used > 0 ? 1 : 0;
  }
  out += "     " + plural(active.size(), "Active Job") + "     " + std::to_string(cores_used) + " of " +
         std::to_string(cores) + " Processors Active " + percent(cores_used, cores) + "\n";
  out += "                       " + std::to_string(busy_nodes) + " of " +
         std::to_string(nodes.nodes.size()) + " Nodes Active      " +
         percent(busy_nodes, static_cast<std::int64_t>(nodes.nodes.size())) + "\n\n";

  const auto waiting_table = [&](const std::vector<const wire::JobView*>& jobs, bool with_blocked_state) {
    std::vector<std::vector<std::string>> r;
    for (const auto* j : jobs) {
      r.push_back({std::to_string(j->id.value()), j->user, with_blocked_state ? blocked_state(*j) : "Idle",
                   std::to_string(job_cores(*j)), limit_text(j->time_limit), maui_date(j->submit_time)});
    }
    return render_table({"JOBNAME", "USERNAME", "STATE", "PROC", "WCLIMIT", "QUEUETIME"}, r);
  };
  out += "IDLE JOBS----------------------\n" + waiting_table(idle, false) + "\n" +
         plural(idle.size(), "Idle Job") + "\n\n";
  out += "BLOCKED JOBS----------------\n" + waiting_table(blocked, true) + "\n";
  out += "Total Jobs: " + std::to_string(active.size() + idle.size() + blocked.size()) +
         "   Active Jobs: " + std::to_string(active.size()) + "   Idle Jobs: " + std::to_string(idle.size()) +
         "   Blocked Jobs: " + std::to_string(blocked.size()) + "\n";
  return out;
}

}  // namespace fairway::cli
