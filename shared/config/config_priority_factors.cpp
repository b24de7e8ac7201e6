// Priority and fair-share factors beyond the basic weights (issue 3): Maui's expansion
// factor, bypass count and target queue time; Titan's node-count bins and allocation
// overuse tiers; fair-share windows and the Fair Tree mode.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "shared/base/duration_format.h"
#include "shared/config/config_sections.h"
#include "shared/config/toml_reading.h"

namespace fairway::config_internal {
namespace {

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

std::string bin_range(const NodeBinConfig& b) {
  return std::to_string(b.min_nodes) + "-" +
         (b.max_nodes ? std::to_string(*b.max_nodes) : std::string("unbounded"));
}

}  // namespace

Status parse_priority_factors(const TomlReader& r, const toml::table& t, Config& cfg) {
  const char* p = "priority";
  PriorityWeights& w = cfg.priority;
  FAIRWAY_TRY(r.read_number(t, "expansion_factor", p, false, w.expansion_factor));
  FAIRWAY_TRY(r.read_number(t, "bypass", p, false, w.bypass));
  FAIRWAY_TRY(r.read_number(t, "resources_per_core", p, false, w.resources_per_core));
  FAIRWAY_TRY(r.read_number(t, "resources_per_gpu", p, false, w.resources_per_gpu));
  FAIRWAY_TRY(r.read_number(t, "queue_target", p, false, w.queue_target));
  FAIRWAY_TRY(r.read_time(t, "queue_target_time", p, true, w.queue_target_time));
  const bool some_qos_target = std::any_of(
      cfg.qos.begin(), cfg.qos.end(), [](const QosConfig& q) { return q.queue_target_time.has_value(); });
  if (w.queue_target != 0 && w.queue_target_time.is_infinite() && !some_qos_target) {
    return r.fail("priority.queue_target", "is " + std::to_string(w.queue_target) +
                                               " but neither priority.queue_target_time nor any"
                                               " qos.queue_target_time is set");
  }
  if (t.contains("age_from")) {
    std::string from;
    FAIRWAY_TRY(r.read_string(t, "age_from", p, from));
    if (from == "eligible") {
      w.age_from = AgeFrom::kEligible;
    } else if (from == "idle") {
      w.age_from = AgeFrom::kIdle;
    } else {
      return r.fail("priority.age_from", "invalid value '" + from + "' (expected eligible or idle)");
    }
  }
  return ok_status();
}

Status parse_fairshare_factors(const TomlReader& r, const toml::table& t, Config& cfg) {
  const char* p = "fairshare";
  if (t.contains("window")) {
    if (t.contains("half_life")) {
      return r.fail("fairshare.window", "set either window or half_life, not both");
    }
    Duration window;
    FAIRWAY_TRY(r.read_time(t, "window", p, true, window));
    if (window.is_infinite() || window < Duration::hours(1)) {
      return r.fail("fairshare.window",
                    "must be finite and >= 1 hour (the bucket size), got " + format_walltime(window));
    }
    cfg.fairshare.window = window;
  }
  FAIRWAY_TRY(r.read_choice(t, "window_weight", p, {std::pair{"flat", false}, {"linear", true}},
                            cfg.fairshare.window_fades));
  if (t.contains("window_weight") && !cfg.fairshare.window) {
    return r.fail("fairshare.window_weight", "is set but fairshare.window is not");
  }
  if (t.contains("mode")) {
    std::string mode;
    FAIRWAY_TRY(r.read_string(t, "mode", p, mode));
    if (mode == "classic") {
      cfg.fairshare.mode = FairShareMode::kClassic;
    } else if (mode == "fair_tree") {
      cfg.fairshare.mode = FairShareMode::kFairTree;
    } else {
      return r.fail("fairshare.mode", "invalid value '" + mode + "' (expected classic or fair_tree)");
    }
  }
  return ok_status();
}

Status parse_node_bins(const TomlReader& r, const toml::table& root, Config& cfg) {
  FAIRWAY_TRY_ASSIGN(entries, r.table_array(root, "node_bins"));
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const toml::table& t = *(entries)[i];
    const std::string path = indexed("node_bins", i);
    FAIRWAY_TRY(r.check_keys(
        t, path, {"name", "min_nodes", "max_nodes", "aging_boost", "max_time", "max_running_jobs_per_user"}));
    FAIRWAY_TRY(r.require(t, "name", path));
    FAIRWAY_TRY(r.require(t, "min_nodes", path));
    NodeBinConfig b;
    FAIRWAY_TRY(r.read_string(t, "name", path, b.name));
    if (!is_name(b.name)) {
      return r.fail(path + ".name", "invalid name '" + b.name + "' (letters, digits, '_' and '-' only)");
    }
    FAIRWAY_TRY(r.read_int(t, "min_nodes", path, 1, kInt32Max, b.min_nodes));
    if (t.contains("max_nodes")) {
      std::int32_t max = 0;
      FAIRWAY_TRY(r.read_int(t, "max_nodes", path, b.min_nodes, kInt32Max, max));
      b.max_nodes = max;
    }
    FAIRWAY_TRY(r.read_time(t, "aging_boost", path, false, b.aging_boost));
    if (b.aging_boost.is_infinite()) return r.fail(path + ".aging_boost", "must be finite");
    FAIRWAY_TRY(r.read_time(t, "max_time", path, true, b.max_time));
    if (t.contains("max_running_jobs_per_user")) {
      std::int32_t cap = 0;
      FAIRWAY_TRY(r.read_int(t, "max_running_jobs_per_user", path, 1, kInt32Max, cap));
      b.max_running_jobs_per_user = cap;
    }
    for (std::size_t j = 0; j < i; ++j) {
      const NodeBinConfig& o = cfg.node_bins[j];
      if (o.name == b.name) {
        return r.fail(path + ".name",
                      "duplicate bin '" + b.name + "' (already " + indexed("node_bins", j) + ")");
      }
      const bool disjoint =
          (b.max_nodes && *b.max_nodes < o.min_nodes) || (o.max_nodes && *o.max_nodes < b.min_nodes);
      if (!disjoint) {
        return r.fail(path, "nodes " + bin_range(b) + " overlap bin '" + o.name + "' (" + bin_range(o) + ")");
      }
    }
    cfg.node_bins.push_back(std::move(b));
  }
  return ok_status();
}

Status parse_allocation_overuse(const TomlReader& r, const toml::table& root, Config& cfg) {
  FAIRWAY_TRY_ASSIGN(entries, r.table_array(root, "allocation_overuse"));
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const toml::table& t = *(entries)[i];
    const std::string path = indexed("allocation_overuse", i);
    FAIRWAY_TRY(r.check_keys(t, path, {"min_percent", "priority_penalty", "max_running_jobs"}));
    FAIRWAY_TRY(r.require(t, "min_percent", path));
    OveruseTierConfig tier;
    FAIRWAY_TRY(r.read_number(t, "min_percent", path, true, tier.min_percent));
    if (i > 0 && tier.min_percent <= cfg.allocation_overuse.back().min_percent) {
      return r.fail(path + ".min_percent", "must be above the previous tier's " +
                                               std::to_string(cfg.allocation_overuse.back().min_percent) +
                                               ", got " + std::to_string(tier.min_percent));
    }
    FAIRWAY_TRY(r.read_time(t, "priority_penalty", path, false, tier.priority_penalty));
    if (tier.priority_penalty.is_infinite()) return r.fail(path + ".priority_penalty", "must be finite");
    if (t.contains("max_running_jobs")) {
      std::int32_t cap = 0;
      FAIRWAY_TRY(r.read_int(t, "max_running_jobs", path, 1, kInt32Max, cap));
      tier.max_running_jobs = cap;
    }
    cfg.allocation_overuse.push_back(tier);
  }
  return ok_status();
}

}  // namespace fairway::config_internal
