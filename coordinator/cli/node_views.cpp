#include "coordinator/cli/node_views.h"

#include "coordinator/cli/text_format.h"

namespace fairway::cli {
namespace {

std::string used_of_total(std::int32_t used, std::int32_t total) {
  return std::to_string(used) + "/" + std::to_string(total);
}

std::vector<std::string> job_ids(const std::vector<JobId>& jobs) {
  std::vector<std::string> out;
  for (JobId id : jobs) out.push_back(std::to_string(id.value()));
  return out;
}

}  // namespace

std::string render_nodes(const wire::NodeQueryReply& reply) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& n : reply.nodes) {
    rows.push_back({n.name, n.state, used_of_total(n.cores_used, n.cores),
                    used_of_total(n.gpus_used, n.gpus), join(n.partitions, ",")});
  }
  return render_table({"NODELIST", "STATE", "CPUS(A/T)", "GPUS(A/T)", "PARTITIONS"}, rows);
}

std::string render_node_detail(const wire::NodeView& n) {
  std::string out;
  const auto line = [&](std::string_view key, const std::string& value) {
    out += std::string(key) + ": " + value + "\n";
  };
  line("NodeName", n.name);
  line("State", n.state);
  if (!n.reason.empty()) line("Reason", n.reason);
  line("Partitions", n.partitions.empty() ? "(none)" : join(n.partitions, ","));
  line("Sockets", std::to_string(n.sockets));
  line("Cores", used_of_total(n.cores_used, n.cores) + " allocated");
  line("ThreadsPerCore", std::to_string(n.threads_per_core));
  line("GPUs", used_of_total(n.gpus_used, n.gpus) + " allocated" +
                   (n.gpu_types.empty() ? "" : " (" + join(n.gpu_types, ",") + ")"));
  line("MemoryMB", std::to_string(n.memory_mb));
  line("Enforcement", n.enforcement.empty() ? "unknown (agent too old to say)" : n.enforcement);
  line("LastHeartbeat", n.last_heartbeat ? format_local_time(*n.last_heartbeat) : "never");
  line("Jobs", n.jobs.empty() ? "(none)" : join(job_ids(n.jobs), ","));
  return out;
}

}  // namespace fairway::cli
