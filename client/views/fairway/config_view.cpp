#include "client/views/fairway/config_view.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <utility>
#include <vector>

#include "client/views/slurm/slurm_config_keys.h"
#include "client/views/slurm/slurm_version.h"
#include "client/views/text_format.h"

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
  // Fairway's own value for each Slurm key whose meaning its settings carry; every other
  // key keeps the value a stock Slurm 22.05 prints, so tools that read one find it.
  std::map<std::string_view, std::string> own;
  const auto set = [&](std::string_view key, std::string value) {
    if (!value.empty()) own[key] = std::move(value);
  };
  set("ClusterName", get("cluster.name"));
  set("FirstJobId", get("coordinator.first_job_id"));
  set("KillWait", seconds_text(get("agent.kill_grace")));
  set("MaxArraySize", get("limits.max_array_size"));
  set("PriorityType", "priority/multifactor");
  set("PriorityWeightFairShare", get("priority.fairshare"));
  set("PriorityWeightJobSize", get("priority.size"));
  set("PriorityWeightPartition", get("priority.partition"));
  set("PriorityWeightQOS", get("priority.qos"));
  const std::string backfill = get("scheduler.backfill");
  set("SchedulerType", backfill.empty() ? "" : backfill == "none" ? "sched/builtin" : "sched/backfill");
  set("SelectType", "select/cons_tres");
  set("SlurmdTimeout", seconds_text(get("coordinator.heartbeat_timeout")));
  set("StateSaveLocation", get("coordinator.state_dir"));
  set("SlurmctldHost[0]", get("coordinator.listen_clients"));
  set("SLURM_VERSION", kSlurmInterfaceVersion);
  // How long scontrol show job lists a job after it ended (Slurm's default, which Fairway's
  // front-end keeps: run_show_job).
  set("MinJobAge", std::to_string(kMinJobAgeSeconds) + " sec");
  // Slurm's own bookkeeping, which Fairway does not have.
  for (std::string_view key : {"BOOT_TIME", "NEXT_JOB_ID", "SLURM_CONF", "HASH_VAL"}) own[key] = "(null)";
  std::string out = "Configuration data as of " + format_local_time(reply.now) + "\n";
  for (const auto& [key, stock] : slurm_config_keys()) {
    std::string padded(key);
    if (padded.size() < 23) padded.resize(23, ' ');
    const auto it = own.find(key);
    out += padded + " = " + (it != own.end() ? it->second : std::string(stock)) + "\n";
  }
  return out;
}

}  // namespace fairway::cli
