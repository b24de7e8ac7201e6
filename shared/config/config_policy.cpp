#include "shared/config/config_sections.h"

#include "shared/base/duration_format.h"
#include "shared/base/try.h"

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace fairway::config_internal {
namespace {

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

}  // namespace

Status parse_qos(const TomlReader& r, const toml::table& root, Config& cfg) {
  FAIRWAY_TRY_ASSIGN(entries, r.table_array(root, "qos"));
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const toml::table& t = *(entries)[i];
    std::string path = indexed("qos", i);
    FAIRWAY_TRY(r.check_keys(t, path,
                             {"name", "priority", "max_time", "max_priority", "queue_target_time",
                              "allow_accounts", "deny_accounts"}));
    FAIRWAY_TRY(r.require(t, "name", path));
    QosConfig qos;
    FAIRWAY_TRY(r.read_string(t, "name", path, qos.name));
    if (!is_name(qos.name)) {
      return r.fail(path + ".name", "invalid name '" + qos.name + "' (letters, digits, '_' and '-' only)");
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (cfg.qos[j].name == qos.name) {
        return r.fail(path + ".name", "duplicate qos '" + qos.name + "' (already " + indexed("qos", j) + ")");
      }
    }
    FAIRWAY_TRY(r.read_number(t, "priority", path, false, qos.priority));
    FAIRWAY_TRY(r.read_time(t, "max_time", path, true, qos.max_time));
    if (t.contains("max_priority")) {
      double cap = 0;
      FAIRWAY_TRY(r.read_number(t, "max_priority", path, false, cap));
      qos.max_priority = cap;
    }
    if (t.contains("queue_target_time")) {
      Duration target;
      FAIRWAY_TRY(r.read_time(t, "queue_target_time", path, false, target));
      if (target <= Duration()) {
        return r.fail(path + ".queue_target_time", "must be positive, not " + format_walltime(target));
      }
      qos.queue_target_time = target;
    }
    FAIRWAY_TRY(parse_access_rules(r, t, path, false, qos.access));
    cfg.qos.push_back(std::move(qos));
  }
  return ok_status();
}

Status parse_accounts(const TomlReader& r, const toml::table& root, Config& cfg) {
  FAIRWAY_TRY_ASSIGN(entries, r.table_array(root, "accounts"));
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const toml::table& t = *(entries)[i];
    std::string path = indexed("accounts", i);
    FAIRWAY_TRY(r.check_keys(t, path, {"name", "shares", "users", "maxps_soft", "maxps_hard", "allocation"}));
    FAIRWAY_TRY(r.require(t, "name", path));
    AccountConfig acct;
    FAIRWAY_TRY(r.read_string(t, "name", path, acct.name));
    if (!is_token(acct.name)) {
      return r.fail(path + ".name",
                    "invalid name '" + acct.name + "' (must be non-empty, without spaces or commas)");
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (cfg.accounts[j].name == acct.name) {
        return r.fail(path + ".name",
                      "duplicate account '" + acct.name + "' (already " + indexed("accounts", j) + ")");
      }
    }
    FAIRWAY_TRY(r.read_number(t, "shares", path, true, acct.shares));
    FAIRWAY_TRY(r.read_string_array(t, "users", path, acct.users));
    for (auto [key, out] :
         {std::pair{"maxps_soft", &acct.maxps_soft}, std::pair{"maxps_hard", &acct.maxps_hard},
          std::pair{"allocation", &acct.allocation}}) {
      if (!t.contains(key)) continue;
      double v = 0;
      FAIRWAY_TRY(r.read_number(t, key, path, true, v));
      *out = v;
    }
    std::set<std::string_view> seen;
    for (std::size_t u = 0; u < acct.users.size(); ++u) {
      const std::string& user = acct.users[u];
      if (!is_token(user)) {
        return r.fail(indexed(path + ".users", u),
                      "invalid user '" + user + "' (must be non-empty, without spaces or commas)");
      }
      if (!seen.insert(user).second) {
        return r.fail(indexed(path + ".users", u), "duplicate user '" + user + "'");
      }
    }
    cfg.accounts.push_back(std::move(acct));
  }
  return ok_status();
}

Status parse_scheduler(const TomlReader& r, const toml::table& root, Config& cfg) {
  FAIRWAY_TRY_ASSIGN(tbl, r.sub_table(root, "scheduler", ""));
  if (tbl == nullptr) return ok_status();
  const toml::table& t = *tbl;
  FAIRWAY_TRY(r.check_keys(t, "scheduler",
                           {"backfill", "reservation_depth", "reservation_min_priority", "reserve_after_wait",
                            "reserve_after_wait_jobs", "main_loop", "backfill_max_jobs_per_user",
                            "backfill_max_jobs_per_partition", "array_task_reservations",
                            "runtime_prediction", "backfill_order"}));
  if (t.contains("backfill")) {
    std::string mode;
    FAIRWAY_TRY(r.read_string(t, "backfill", "scheduler", mode));
    if (mode == "none") {
      cfg.scheduler.backfill = BackfillMode::kNone;
    } else if (mode == "easy") {
      cfg.scheduler.backfill = BackfillMode::kEasy;
    } else if (mode == "conservative") {
      cfg.scheduler.backfill = BackfillMode::kConservative;
    } else {
      return r.fail("scheduler.backfill",
                    "invalid value '" + mode + "' (expected none, easy or conservative)");
    }
  }
  if (t.contains("reservation_depth")) {
    std::int32_t depth = 0;
    FAIRWAY_TRY(r.read_int(t, "reservation_depth", "scheduler", 0, kInt32Max, depth));
    cfg.scheduler.reservation_depth = depth;
  }
  if (t.contains("reservation_min_priority")) {
    double threshold = 0;
    FAIRWAY_TRY(r.read_number(t, "reservation_min_priority", "scheduler", false, threshold));
    cfg.scheduler.reservation_min_priority = threshold;
  }
  if (t.contains("reserve_after_wait")) {
    Duration wait;
    FAIRWAY_TRY(r.read_time(t, "reserve_after_wait", "scheduler", true, wait));
    cfg.scheduler.reserve_after_wait = wait;
  }
  if (t.contains("reserve_after_wait_jobs")) {
    FAIRWAY_TRY(r.read_int(t, "reserve_after_wait_jobs", "scheduler", 1, kInt32Max,
                           cfg.scheduler.reserve_after_wait_jobs));
  }
  FAIRWAY_TRY(r.read_bool(t, "main_loop", "scheduler", cfg.scheduler.main_loop));
  for (auto [key, out] :
       {std::pair{"backfill_max_jobs_per_user", &cfg.scheduler.backfill_max_jobs_per_user},
        std::pair{"backfill_max_jobs_per_partition", &cfg.scheduler.backfill_max_jobs_per_partition}}) {
    if (!t.contains(key)) continue;
    std::int32_t cap = 0;
    FAIRWAY_TRY(r.read_int(t, key, "scheduler", 1, kInt32Max, cap));
    *out = cap;
  }
  if (t.contains("array_task_reservations")) {
    FAIRWAY_TRY(r.read_int(t, "array_task_reservations", "scheduler", 0, 1000000,
                           cfg.scheduler.array_task_reservations));
  }
  if (t.contains("runtime_prediction")) {
    std::string v;
    FAIRWAY_TRY(r.read_string(t, "runtime_prediction", "scheduler", v));
    if (v == "none") {
      cfg.scheduler.runtime_prediction = RuntimePrediction::kNone;
    } else if (v == "user_last_2") {
      cfg.scheduler.runtime_prediction = RuntimePrediction::kUserLast2;
    } else {
      return r.fail("scheduler.runtime_prediction",
                    "invalid value '" + v + "' (expected none or user_last_2)");
    }
  }
  if (t.contains("backfill_order")) {
    std::string v;
    FAIRWAY_TRY(r.read_string(t, "backfill_order", "scheduler", v));
    if (v == "priority") {
      cfg.scheduler.backfill_order = BackfillOrder::kPriority;
    } else if (v == "shortest_first") {
      cfg.scheduler.backfill_order = BackfillOrder::kShortestFirst;
    } else {
      return r.fail("scheduler.backfill_order",
                    "invalid value '" + v + "' (expected priority or shortest_first)");
    }
  }
  return ok_status();
}

Status parse_priority(const TomlReader& r, const toml::table& root, Config& cfg) {
  FAIRWAY_TRY_ASSIGN(tbl, r.sub_table(root, "priority", ""));
  if (tbl == nullptr) return ok_status();
  const toml::table& t = *tbl;
  const char* p = "priority";
  FAIRWAY_TRY(r.check_keys(
      t, p,
      {"age_per_minute", "age_cap", "fairshare", "size", "partition", "qos", "expansion_factor", "bypass",
       "queue_target", "queue_target_time", "age_from", "resources_per_core", "resources_per_gpu"}));
  PriorityWeights& w = cfg.priority;
  FAIRWAY_TRY(r.read_number(t, "age_per_minute", p, false, w.age_per_minute));
  FAIRWAY_TRY(r.read_time(t, "age_cap", p, false, w.age_cap));
  FAIRWAY_TRY(r.read_number(t, "fairshare", p, false, w.fairshare));
  FAIRWAY_TRY(r.read_number(t, "size", p, false, w.size));
  FAIRWAY_TRY(r.read_number(t, "partition", p, false, w.partition));
  FAIRWAY_TRY(r.read_number(t, "qos", p, false, w.qos));
  return parse_priority_factors(r, t, cfg);
}

Status parse_fairshare(const TomlReader& r, const toml::table& root, Config& cfg) {
  FAIRWAY_TRY_ASSIGN(tbl, r.sub_table(root, "fairshare", ""));
  if (tbl == nullptr) return ok_status();
  const toml::table& t = *tbl;
  FAIRWAY_TRY(r.check_keys(t, "fairshare", {"half_life", "target_share", "window", "window_weight", "mode"}));
  FAIRWAY_TRY(r.read_time(t, "half_life", "fairshare", true, cfg.fairshare.half_life));
  FAIRWAY_TRY(parse_fairshare_factors(r, t, cfg));
  FAIRWAY_TRY_ASSIGN(target, r.sub_table(t, "target_share", "fairshare"));
  if (target == nullptr) return ok_status();
  const toml::table& ts = *target;
  const char* path = "fairshare.target_share";
  FAIRWAY_TRY(r.check_keys(ts, path,
                           {"user_target_percent", "user_minutes_per_percent", "account_target_percent",
                            "account_minutes_per_percent"}));
  TargetShareConfig c;
  FAIRWAY_TRY(r.read_number(ts, "user_target_percent", path, false, c.user_target_percent));
  FAIRWAY_TRY(r.read_number(ts, "user_minutes_per_percent", path, false, c.user_minutes_per_percent));
  FAIRWAY_TRY(r.read_number(ts, "account_target_percent", path, false, c.account_target_percent));
  FAIRWAY_TRY(r.read_number(ts, "account_minutes_per_percent", path, false, c.account_minutes_per_percent));
  if (c.user_target_percent > 100 || c.account_target_percent > 100) {
    return r.fail(std::string(path), "target percents must be <= 100");
  }
  cfg.fairshare.target_share = c;
  return ok_status();
}

Status parse_billing(const TomlReader& r, const toml::table& root, Config& cfg) {
  FAIRWAY_TRY_ASSIGN(tbl, r.sub_table(root, "billing", ""));
  if (tbl == nullptr) return ok_status();
  const toml::table& t = *tbl;
  FAIRWAY_TRY(r.check_keys(t, "billing",
                           {"cpu", "gpu", "gpu_jobs_bill_cores", "allocation_period", "memory_per_gb"}));
  FAIRWAY_TRY(r.read_number(t, "cpu", "billing", false, cfg.billing.cpu));
  FAIRWAY_TRY(r.read_number(t, "memory_per_gb", "billing", false, cfg.billing.memory_per_gb));
  FAIRWAY_TRY(r.read_bool(t, "gpu_jobs_bill_cores", "billing", cfg.billing.gpu_jobs_bill_cores));
  FAIRWAY_TRY(r.read_choice(t, "allocation_period", "billing",
                            {std::pair{"none", CalendarPeriod::kNone},
                             {"month", CalendarPeriod::kMonth},
                             {"quarter", CalendarPeriod::kQuarter},
                             {"year", CalendarPeriod::kYear}},
                            cfg.billing.allocation_period));
  FAIRWAY_TRY_ASSIGN(gpu, r.sub_table(t, "gpu", "billing"));
  if (gpu == nullptr) return ok_status();
  for (auto&& [k, v] : *gpu) {
    std::string type(k.str());
    std::string path = "billing.gpu." + type;
    if (!is_gpu_type(type)) {
      return r.fail(path, "invalid GPU type '" + type + "' (lower-case letters, digits, '_' and '-')");
    }
    double weight = 0.0;
    FAIRWAY_TRY(r.number_value(v, path, false, weight));
    cfg.billing.gpu[type] = weight;
  }
  return ok_status();
}

}  // namespace fairway::config_internal
