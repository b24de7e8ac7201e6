#include "shared/config/config_sections.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "shared/base/duration_format.h"
#include "shared/base/try.h"
#include "shared/config/hostlist.h"

namespace fairway::config_internal {
namespace {

// Bounds that keep per-node arithmetic (total cores, PU counts) far from int32 overflow.
constexpr std::int64_t kMaxSockets = 1024;
constexpr std::int64_t kMaxCoresPerSocket = 65536;
constexpr std::int64_t kMaxThreadsPerCore = 1024;
constexpr std::int64_t kMaxGpusPerSocket = 1024;

std::vector<std::string> all_node_names(const Config& cfg) {
  std::vector<std::string> names;
  names.reserve(cfg.nodes.size());
  for (const auto& n : cfg.nodes) names.push_back(n.name);
  return names;
}

}  // namespace

Result<std::vector<std::string>> declared_hosts(const TomlReader& r, const std::string& path,
                                                const std::string& hostlist, const NodeGroups& node_group) {
  auto hosts = expand_hostlist(hostlist);
  if (!hosts) return r.fail(path, hosts.error().message);
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (auto& host : *hosts) {
    if (!node_group.contains(host)) {
      return r.fail(path, "unknown node '" + host + "' in '" + hostlist + "'");
    }
    // Listing a node twice ("cn[1-4],cn2") is harmless; keep the first mention.
    if (seen.insert(host).second) out.push_back(std::move(host));
  }
  return out;
}

Status parse_nodes(const TomlReader& r, const toml::table& root, Config& cfg, NodeGroups& node_group) {
  FAIRWAY_TRY_ASSIGN(groups, r.table_array(root, "nodes"));
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const toml::table& t = *(groups)[g];
    std::string path = indexed("nodes", g);
    FAIRWAY_TRY(r.check_keys(t, path,
                             {"names", "sockets", "cores_per_socket", "threads_per_core", "memory_mb",
                              "gpus_per_socket", "gpu_type", "features", "island"}));
    FAIRWAY_TRY(r.require(t, "names", path));
    FAIRWAY_TRY(r.require(t, "cores_per_socket", path));
    std::string names;
    std::int32_t sockets = 1;
    std::int32_t cores_per_socket = 1;
    std::int32_t threads_per_core = 1;
    std::int64_t memory_mb = 0;
    std::int32_t gpus_per_socket = 0;
    std::string gpu_type;
    std::vector<std::string> features;
    FAIRWAY_TRY(r.read_string(t, "names", path, names));
    FAIRWAY_TRY(r.read_int(t, "sockets", path, 1, kMaxSockets, sockets));
    FAIRWAY_TRY(r.read_int(t, "cores_per_socket", path, 1, kMaxCoresPerSocket, cores_per_socket));
    FAIRWAY_TRY(r.read_int(t, "threads_per_core", path, 1, kMaxThreadsPerCore, threads_per_core));
    FAIRWAY_TRY(r.read_int(t, "memory_mb", path, 0, std::numeric_limits<std::int64_t>::max(), memory_mb));
    FAIRWAY_TRY(r.read_int(t, "gpus_per_socket", path, 0, kMaxGpusPerSocket, gpus_per_socket));
    FAIRWAY_TRY(r.read_string(t, "gpu_type", path, gpu_type));
    FAIRWAY_TRY(r.read_string_array(t, "features", path, features));
    std::string island;
    FAIRWAY_TRY(read_node_island(r, t, path, island));

    if (t.contains("gpu_type") && !is_gpu_type(gpu_type)) {
      return r.fail(path + ".gpu_type",
                    "invalid GPU type '" + gpu_type + "' (lower-case letters, digits, '_' and '-')");
    }
    if (gpus_per_socket > 0 && !t.contains("gpu_type")) {
      return r.fail(path + ".gpu_type", "required when gpus_per_socket > 0 (gpus_per_socket = " +
                                            std::to_string(gpus_per_socket) + ")");
    }
    for (std::size_t i = 0; i < features.size(); ++i) {
      if (!is_feature(features[i])) {
        return r.fail(indexed(path + ".features", i),
                      "invalid feature '" + features[i] + "' (letters, digits, '_', '-' and '.')");
      }
    }

    auto hosts = expand_hostlist(names);
    if (!hosts) return r.fail(path + ".names", hosts.error().message);
    for (auto& host : *hosts) {
      auto [it, inserted] = node_group.emplace(host, g);
      if (!inserted) {
        return r.fail(path + ".names",
                      "duplicate node '" + host + "' (already in " + indexed("nodes", it->second) + ")");
      }
      NodeTopology node = NodeTopology::uniform(std::move(host), sockets, cores_per_socket, gpus_per_socket,
                                                gpu_type, threads_per_core);
      node.memory_mb = memory_mb;
      node.features = features;
      node.island = island;
      cfg.nodes.push_back(std::move(node));
    }
  }
  return ok_status();
}

Status parse_partitions(const TomlReader& r, const toml::table& root, Config& cfg,
                        const NodeGroups& node_group) {
  FAIRWAY_TRY_ASSIGN(parts, r.table_array(root, "partitions"));
  std::optional<std::size_t> default_index;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const toml::table& t = *(parts)[p];
    std::string path = indexed("partitions", p);
    FAIRWAY_TRY(r.check_keys(t, path,
                             {"name",
                              "nodes",
                              "default",
                              "max_time",
                              "default_time",
                              "priority",
                              "default_qos",
                              "whole_nodes_above_node_size",
                              "max_jobs_per_user",
                              "allocation_unit",
                              "socket_exclusive_gpus",
                              "island_placement",
                              "clamp_time_limit",
                              "default_for_interactive",
                              "killable",
                              "killable_cutoff",
                              "priority_tier",
                              "preempt",
                              "preempt_exempt_time",
                              "preempt_grace",
                              "default_mem_per_cpu_mb",
                              "allow_accounts",
                              "deny_accounts",
                              "allow_groups",
                              "allow_qos",
                              "deny_qos"}));
    FAIRWAY_TRY(r.require(t, "name", path));
    PartitionConfig part;
    FAIRWAY_TRY(r.read_string(t, "name", path, part.name));
    if (!is_name(part.name)) {
      return r.fail(path + ".name", "invalid name '" + part.name + "' (letters, digits, '_' and '-' only)");
    }
    for (std::size_t q = 0; q < p; ++q) {
      if (cfg.partitions[q].name == part.name) {
        return r.fail(path + ".name",
                      "duplicate partition '" + part.name + "' (already " + indexed("partitions", q) + ")");
      }
    }

    std::string nodes = "ALL";
    FAIRWAY_TRY(r.read_string(t, "nodes", path, nodes));
    if (nodes == "ALL") {
      part.nodes = all_node_names(cfg);
    } else {
      FAIRWAY_TRY_ASSIGN(hosts, declared_hosts(r, path + ".nodes", nodes, node_group));
      part.nodes = std::move(hosts);
    }

    FAIRWAY_TRY(r.read_bool(t, "default", path, part.is_default));
    if (part.is_default) {
      if (default_index) {
        return r.fail(path + ".default",
                      "more than one default partition ('" + cfg.partitions[*default_index].name + "' in " +
                          indexed("partitions", *default_index) + " and '" + part.name + "' here)");
      }
      default_index = p;
    }

    FAIRWAY_TRY(r.read_time(t, "max_time", path, true, part.max_time));
    FAIRWAY_TRY(r.read_time(t, "default_time", path, true, part.default_time));
    if (!t.contains("default_time")) {
      part.default_time = std::min(part.default_time, part.max_time);
    } else if (part.default_time > part.max_time) {
      return r.fail(path + ".default_time", "'" + format_walltime(part.default_time) +
                                                "' exceeds max_time '" + format_walltime(part.max_time) +
                                                "'");
    }
    FAIRWAY_TRY(r.read_number(t, "priority", path, false, part.priority));
    FAIRWAY_TRY(r.read_bool(t, "whole_nodes_above_node_size", path, part.whole_nodes_above_node_size));
    if (t.contains("max_jobs_per_user")) {
      std::int32_t n = 0;
      FAIRWAY_TRY(r.read_int(t, "max_jobs_per_user", path, 1, 2147483647, n));
      part.max_jobs_per_user = n;
    }
    if (t.contains("default_qos")) {
      FAIRWAY_TRY(r.read_string(t, "default_qos", path, part.default_qos));
    }
    FAIRWAY_TRY(
        r.read_int(t, "default_mem_per_cpu_mb", path, 0, std::int64_t{1} << 40, part.default_mem_per_cpu_mb));
    FAIRWAY_TRY(parse_partition_placement(r, t, path, cfg, part));
    FAIRWAY_TRY(r.read_bool(t, "clamp_time_limit", path, part.clamp_time_limit));
    if (part.clamp_time_limit && part.max_time.is_infinite()) {
      return r.fail(path + ".clamp_time_limit",
                    "true needs a finite max_time to clamp to (partition '" + part.name + "')");
    }
    FAIRWAY_TRY(r.read_bool(t, "default_for_interactive", path, part.default_for_interactive));
    FAIRWAY_TRY(parse_partition_killable(r, t, path, part));
    FAIRWAY_TRY(parse_partition_preemption(r, t, path, part));
    FAIRWAY_TRY(parse_access_rules(r, t, path, true, part.access));
    if (part.default_for_interactive) {
      for (std::size_t q = 0; q < p; ++q) {
        if (cfg.partitions[q].default_for_interactive) {
          return r.fail(
              path + ".default_for_interactive",
              "more than one interactive default ('" + cfg.partitions[q].name + "' and '" + part.name + "')");
        }
      }
    }
    cfg.partitions.push_back(std::move(part));
  }

  // Jobs that name no partition must land somewhere, so there is always exactly one default.
  if (cfg.partitions.empty()) {
    PartitionConfig batch;
    batch.name = "batch";
    batch.nodes = all_node_names(cfg);
    batch.is_default = true;
    cfg.partitions.push_back(std::move(batch));
  } else if (!default_index) {
    cfg.partitions.front().is_default = true;
  }
  return ok_status();
}

}  // namespace fairway::config_internal
