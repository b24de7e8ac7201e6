#include "client/views/fairway/node_views.h"

#include <map>

#include "client/views/text_format.h"
#include "shared/config/hostlist.h"

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
    rows.push_back({n.name, n.state, used_of_total(n.cores_used, n.cores), used_of_total(n.gpus_used, n.gpus),
                    join(n.partitions, ",")});
  }
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i].push_back(reply.nodes[i].reason);
  return render_table({"NODELIST", "STATE", "CPUS(A/T)", "GPUS(A/T)", "PARTITIONS", "REASON"}, rows);
}

namespace {

// Allocated/idle/other/total, as sinfo -s counts them.
struct Counts {
  std::int64_t a = 0, i = 0, o = 0;
  void add(std::int64_t used, std::int64_t total, bool usable) {
    a += used;
    (usable ? i : o) += total - used;
  }
  std::string text() const {
    return std::to_string(a) + "/" + std::to_string(i) + "/" + std::to_string(o) + "/" +
           std::to_string(a + i + o);
  }
};

struct PartitionSummary {
  Counts nodes, cores, gpus;
  std::vector<std::string> names;
};

}  // namespace

std::string render_partition_summary(const wire::NodeQueryReply& reply) {
  std::map<std::string, PartitionSummary> by_partition;
  for (const auto& n : reply.nodes) {
    // A node that is down or drained takes no new work: its free resources are "other".
    const bool usable = n.state != "down" && n.state != "drained" && n.state != "draining";
    const bool busy = n.cores_used > 0 || n.gpus_used > 0;
    for (const auto& p : n.partitions) {
      PartitionSummary& s = by_partition[p];
      s.nodes.add(busy ? 1 : 0, 1, usable);
      s.cores.add(n.cores_used, n.cores, usable);
      s.gpus.add(n.gpus_used, n.gpus, usable);
      s.names.push_back(n.name);
    }
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, s] : by_partition) {
    rows.push_back({name, s.nodes.text(), s.cores.text(), s.gpus.text(), compress_hostlist(s.names)});
  }
  return render_table({"PARTITION", "NODES(A/I/O/T)", "CPUS(A/I/O/T)", "GPUS(A/I/O/T)", "NODELIST"}, rows);
}

std::string render_node_detail(const wire::NodeView& n) {
  std::string out;
  const auto line = [&](std::string_view key, const std::string& value) {
    out += std::string(key) + ": " + value + "\n";
  };
  line("NodeName", n.name);
  line("State", n.state);
  // Who set it and when, as scontrol writes it: "disk check [root@2026-11-26T10:27:41]".
  if (!n.reason.empty()) {
    line("Reason",
         n.reason + (n.reason_user.empty() && !n.reason_time
                         ? ""
                         : " [" + (n.reason_user.empty() ? "Unknown" : n.reason_user) + "@" +
                               (n.reason_time ? format_local_time(*n.reason_time) : "Unknown") + "]"));
  }
  line("Partitions", n.partitions.empty() ? "(none)" : join(n.partitions, ","));
  line("Sockets", std::to_string(n.sockets));
  line("Cores", used_of_total(n.cores_used, n.cores) + " allocated");
  line("ThreadsPerCore", std::to_string(n.threads_per_core));
  line("GPUs", used_of_total(n.gpus_used, n.gpus) + " allocated" +
                   (n.gpu_types.empty() ? "" : " (" + join(n.gpu_types, ",") + ")"));
  line("Memory",
       n.memory_mb > 0
           ? std::to_string(n.memory_used_mb) + "/" + std::to_string(n.memory_mb) + " MiB allocated"
           : std::to_string(n.memory_used_mb) + " MiB allocated (node declares no memory: not scheduled)");
  line("Enforcement", n.enforcement.empty() ? "unknown (agent too old to say)" : n.enforcement);
  line("LastHeartbeat", n.last_heartbeat ? format_local_time(*n.last_heartbeat) : "never");
  line("Jobs", n.jobs.empty() ? "(none)" : join(job_ids(n.jobs), ","));
  return out;
}

}  // namespace fairway::cli
