#include "shared/config/config.h"

#include <algorithm>

#include <exception>
#include <string>

#include <toml++/toml.h>

#include "shared/config/config_sections.h"
#include "shared/config/toml_reading.h"

namespace fairway {
namespace config_internal {
namespace {

Status parse_cluster(const TomlReader& r, const toml::table& root, Config& cfg) {
  FAIRWAY_TRY_ASSIGN(tbl, r.sub_table(root, "cluster", ""));
  if (tbl == nullptr) return ok_status();
  const toml::table& t = *tbl;
  FAIRWAY_TRY(r.check_keys(t, "cluster", {"name"}));
  FAIRWAY_TRY(r.read_string(t, "name", "cluster", cfg.cluster_name));
  if (!is_token(cfg.cluster_name)) {
    return r.fail("cluster.name",
                  "invalid name '" + cfg.cluster_name + "' (must be non-empty, without spaces or commas)");
  }
  return ok_status();
}

Result<Config> parse_root(const TomlReader& r, const toml::table& root) {
  Config cfg;
  FAIRWAY_TRY(r.check_keys(
      root, "",
      {"cluster", "nodes", "partitions", "qos", "accounts", "scheduler", "priority", "fairshare", "billing",
       "limits", "coordinator", "agent", "security", "node_bins", "allocation_overuse", "reservations"}));
  FAIRWAY_TRY(parse_cluster(r, root, cfg));
  NodeGroups node_group;
  FAIRWAY_TRY(parse_nodes(r, root, cfg, node_group));
  FAIRWAY_TRY(parse_partitions(r, root, cfg, node_group));
  FAIRWAY_TRY(parse_qos(r, root, cfg));
  FAIRWAY_TRY(parse_accounts(r, root, cfg));
  FAIRWAY_TRY(parse_scheduler(r, root, cfg));
  FAIRWAY_TRY(parse_priority(r, root, cfg));
  FAIRWAY_TRY(parse_fairshare(r, root, cfg));
  FAIRWAY_TRY(parse_billing(r, root, cfg));
  FAIRWAY_TRY(parse_limits(r, root, cfg));
  FAIRWAY_TRY(parse_node_bins(r, root, cfg));
  FAIRWAY_TRY(parse_allocation_overuse(r, root, cfg));
  FAIRWAY_TRY(parse_daemons(r, root, cfg));
  FAIRWAY_TRY(parse_reservations(r, root, cfg, node_group));
  // Partitions are read before the QOS table, so their QOS names are checked here.
  for (std::size_t i = 0; i < cfg.partitions.size(); ++i) {
    const std::string& q = cfg.partitions[i].default_qos;
    if (q.empty()) continue;
    const bool known =
        std::any_of(cfg.qos.begin(), cfg.qos.end(), [&](const QosConfig& c) { return c.name == q; });
    if (!known) return r.fail(indexed("partitions", i) + ".default_qos", "unknown qos '" + q + "'");
  }
  return cfg;
}

}  // namespace
}  // namespace config_internal

std::string_view to_string(BackfillMode m) {
  switch (m) {
    case BackfillMode::kNone:
      return "none";
    case BackfillMode::kEasy:
      return "easy";
    case BackfillMode::kConservative:
      return "conservative";
  }
  return "unknown";
}

std::string_view to_string(RuntimePrediction p) {
  switch (p) {
    case RuntimePrediction::kNone:
      return "none";
    case RuntimePrediction::kUserLast2:
      return "user_last_2";
  }
  return "unknown";
}

std::string_view to_string(BackfillOrder o) {
  switch (o) {
    case BackfillOrder::kPriority:
      return "priority";
    case BackfillOrder::kShortestFirst:
      return "shortest_first";
  }
  return "unknown";
}

const PartitionConfig* Config::default_partition() const {
  for (const auto& p : partitions) {
    if (p.is_default) return &p;
  }
  // A hand-built Config (tests, tools) may flag none; parse_config always flags one.
  return partitions.empty() ? nullptr : &partitions.front();
}

Result<Config> parse_config(std::string_view toml_text, std::string_view source) {
  const std::string src = source.empty() ? std::string("config") : std::string(source);
  try {
    toml::table root;
    try {
      root = toml::parse(toml_text, src);
    } catch (const toml::parse_error& e) {
      const auto& where = e.source().begin;
      return invalid_argument(src + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) +
                              ": " + std::string(e.description()));
    }
    return config_internal::parse_root(config_internal::TomlReader(src), root);
  } catch (const std::exception& e) {
    // Only allocation failures can get here; they must still not cross the module boundary.
    return make_error(ErrorCode::kInternal, src + ": " + e.what());
  }
}

}  // namespace fairway
