// Parsers for the top-level sections of the config file, which parse_config (config.cpp)
// runs in turn. Internal to fairway_config; defined in config_nodes.cpp and config_policy.cpp.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>

#include <toml++/toml.h>

#include "shared/base/result.h"
#include "shared/config/config.h"
#include "shared/config/toml_reading.h"

namespace fairway::config_internal {

// Node name -> index of the [[nodes]] group that declared it; for duplicates and lookups.
using NodeGroups = std::unordered_map<std::string, std::size_t>;

// A host list ("cn[01-04],gpu1") expanded to declared node names, each once, in order;
// an unknown name fails at `path`, naming it and the list.
Result<std::vector<std::string>> declared_hosts(const TomlReader& r, const std::string& path,
                                                const std::string& hostlist, const NodeGroups& node_group);

// [[nodes]] and [[partitions]]: partitions refer to nodes by name, so nodes come first.
Status parse_nodes(const TomlReader& r, const toml::table& root, Config& cfg, NodeGroups& node_group);
Status parse_partitions(const TomlReader& r, const toml::table& root, Config& cfg,
                        const NodeGroups& node_group);

// Placement keys (config_placement.cpp): a node's `island`, and a partition's
// allocation_unit, socket_exclusive_gpus and island_placement (after its nodes are read).
Status read_node_island(const TomlReader& r, const toml::table& t, const std::string& path,
                        std::string& island);
Status parse_partition_placement(const TomlReader& r, const toml::table& t, const std::string& path,
                                 const Config& cfg, PartitionConfig& part);

// Who may use a partition (partition = true: every access key) or a QOS (accounts only),
// config_access.cpp.
Status parse_access_rules(const TomlReader& r, const toml::table& t, const std::string& path, bool partition,
                          AccessRules& out);

// Scheduling policy: [[qos]], [[accounts]], [scheduler], [priority], [fairshare], [billing].
Status parse_qos(const TomlReader& r, const toml::table& root, Config& cfg);
Status parse_accounts(const TomlReader& r, const toml::table& root, Config& cfg);
Status parse_scheduler(const TomlReader& r, const toml::table& root, Config& cfg);
Status parse_priority(const TomlReader& r, const toml::table& root, Config& cfg);
Status parse_fairshare(const TomlReader& r, const toml::table& root, Config& cfg);
Status parse_billing(const TomlReader& r, const toml::table& root, Config& cfg);
// Issue 3's factors (config_priority_factors.cpp): the extra [priority] and [fairshare]
// keys, read from those tables, and the [[node_bins]] and [[allocation_overuse]] arrays.
Status parse_priority_factors(const TomlReader& r, const toml::table& priority, Config& cfg);
Status parse_fairshare_factors(const TomlReader& r, const toml::table& fairshare, Config& cfg);
Status parse_node_bins(const TomlReader& r, const toml::table& root, Config& cfg);
Status parse_allocation_overuse(const TomlReader& r, const toml::table& root, Config& cfg);
Status parse_limits(const TomlReader& r, const toml::table& root, Config& cfg);
// [[reservations]] and the partition keys `killable` and `killable_cutoff`
// (config_reservations.cpp); reservations come after nodes, whose names they use.
Status parse_reservations(const TomlReader& r, const toml::table& root, Config& cfg,
                          const NodeGroups& node_group);
Status parse_partition_killable(const TomlReader& r, const toml::table& t, const std::string& path,
                                PartitionConfig& part);
// A partition's preemption keys (config_preemption.cpp): priority_tier, preempt,
// preempt_exempt_time, preempt_grace.
Status parse_partition_preemption(const TomlReader& r, const toml::table& t, const std::string& path,
                                  PartitionConfig& part);
// [coordinator] and [agent]: the daemons' endpoints, paths and timers.
Status parse_daemons(const TomlReader& r, const toml::table& root, Config& cfg);

}  // namespace fairway::config_internal
