#include "coordinator/cli/config_view.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <utility>
#include <vector>

#include "coordinator/cli/slurm_commands.h"
#include "coordinator/cli/text_format.h"

namespace fairway::cli {
namespace {

// "30s" -> "30 sec", as scontrol writes times; anything else as it is.
std::string seconds_text(const std::string& value) {
  if (value.size() > 1 && value.back() == 's' &&
      std::all_of(value.begin(), value.end() - 1, [](unsigned char c) { return std::isdigit(c) != 0; })) {
    return value.substr(0, value.size() - 1) + " sec";
  }
  return value;
}

}  // namespace

std::string render_config(const wire::ConfigReply& reply) {
  std::string out;
  for (const auto& e : reply.entries) out += e.key + " = " + e.value + "\n";
  return out;
}

std::string render_scontrol_config(const wire::ConfigReply& reply) {
  std::map<std::string, std::string> ours;
  for (const auto& e : reply.entries) ours[e.key] = e.value;
  const auto get = [&](const std::string& key) {
    auto it = ours.find(key);
    return it == ours.end() ? std::string() : it->second;
  };
  // Only what means the same here as in Slurm; in the order scontrol prints them.
  std::vector<std::pair<std::string, std::string>> lines;
  const auto line = [&](std::string key, std::string value) {
    if (!value.empty()) lines.emplace_back(std::move(key), std::move(value));
  };
  line("ClusterName", get("cluster.name"));
  line("FirstJobId", get("coordinator.first_job_id"));
  line("KillWait", seconds_text(get("agent.kill_grace")));
  line("MaxArraySize", get("limits.max_array_size"));
  line("PriorityType", "priority/multifactor");
  const std::string backfill = get("scheduler.backfill");
  line("SchedulerType", backfill.empty() ? "" : backfill == "none" ? "sched/builtin" : "sched/backfill");
  line("SelectType", "select/cons_tres");
  line("SlurmdTimeout", seconds_text(get("coordinator.heartbeat_timeout")));
  line("SLURM_VERSION", kSlurmInterfaceVersion);
  std::string out = "Configuration data as of " + format_local_time(reply.now) + "\n";
  for (auto& [key, value] : lines) {
    std::string padded = key;
    if (padded.size() < 23) padded.resize(23, ' ');
    out += padded + " = " + value + "\n";
  }
  return out;
}

}  // namespace fairway::cli
