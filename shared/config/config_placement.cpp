#include <algorithm>
#include <string>

#include "shared/config/config_sections.h"

namespace fairway {

std::string_view to_string(AllocationUnit u) {
  switch (u) {
    case AllocationUnit::kCore:
      return "core";
    case AllocationUnit::kSocket:
      return "socket";
    case AllocationUnit::kNode:
      return "node";
  }
  return "?";
}

std::string_view to_string(IslandPlacement p) {
  switch (p) {
    case IslandPlacement::kAny:
      return "any";
    case IslandPlacement::kPrefer:
      return "prefer";
    case IslandPlacement::kRequire:
      return "require";
  }
  return "?";
}

namespace config_internal {

Status read_node_island(const TomlReader& r, const toml::table& t, const std::string& path,
                        std::string& island) {
  if (!t.contains("island")) return ok_status();
  FAIRWAY_TRY(r.read_string(t, "island", path, island));
  if (!is_name(island)) {
    return r.fail(path + ".island", "invalid island '" + island + "' (letters, digits, '_' and '-' only)");
  }
  return ok_status();
}

Status parse_partition_placement(const TomlReader& r, const toml::table& t, const std::string& path,
                                 const Config& cfg, PartitionConfig& part) {
  PlacementConfig& pl = part.placement;
  FAIRWAY_TRY(r.read_bool(t, "socket_exclusive_gpus", path, pl.socket_exclusive_gpus));
  if (t.contains("allocation_unit")) {
    std::string unit;
    FAIRWAY_TRY(r.read_string(t, "allocation_unit", path, unit));
    if (unit == "core") {
      pl.allocation_unit = AllocationUnit::kCore;
    } else if (unit == "socket") {
      pl.allocation_unit = AllocationUnit::kSocket;
    } else if (unit == "node") {
      pl.allocation_unit = AllocationUnit::kNode;
    } else {
      return r.fail(path + ".allocation_unit",
                    "invalid value '" + unit + "' (expected core, socket or node)");
    }
  }
  if (t.contains("island_placement")) {
    std::string mode;
    FAIRWAY_TRY(r.read_string(t, "island_placement", path, mode));
    if (mode == "any") {
      pl.island_placement = IslandPlacement::kAny;
    } else if (mode == "prefer") {
      pl.island_placement = IslandPlacement::kPrefer;
    } else if (mode == "require") {
      pl.island_placement = IslandPlacement::kRequire;
    } else {
      return r.fail(path + ".island_placement",
                    "invalid value '" + mode + "' (expected any, prefer or require)");
    }
    // Requiring islands on nodes that have none is a config slip, not a policy.
    if (pl.island_placement == IslandPlacement::kRequire && !part.nodes.empty()) {
      const bool any_island = std::any_of(cfg.nodes.begin(), cfg.nodes.end(), [&](const NodeTopology& n) {
        return !n.island.empty() &&
               std::find(part.nodes.begin(), part.nodes.end(), n.name) != part.nodes.end();
      });
      if (!any_island) {
        return r.fail(path + ".island_placement", "'require' but none of partition '" + part.name +
                                                      "''s nodes has an island (set nodes.island)");
      }
    }
  }
  return ok_status();
}

}  // namespace config_internal
}  // namespace fairway
