// The [limits] table: job-count caps and Maui MAXPS (seeds 000, 002, 004).
#include "shared/config/config_sections.h"
#include "shared/config/toml_reading.h"

namespace fairway::config_internal {

Status parse_limits(const TomlReader& r, const toml::table& root, Config& cfg) {
  auto tbl = r.sub_table(root, "limits", "");
  if (!tbl) return std::unexpected(tbl.error());
  if (*tbl == nullptr) return ok_status();
  const toml::table& t = **tbl;
  const char* p = "limits";
  FAIRWAY_TRY(r.check_keys(t, p, {"max_eligible_jobs_per_user", "max_eligible_jobs_per_account",
                                  "max_active_jobs_per_user", "max_submitted_jobs_per_user",
                                  "maxps_soft", "maxps_hard", "maxps_per", "promote_blocked"}));
  LimitsConfig& l = cfg.limits;
  const std::pair<const char*, std::optional<std::int32_t>*> counts[] = {
      {"max_eligible_jobs_per_user", &l.max_eligible_jobs_per_user},
      {"max_eligible_jobs_per_account", &l.max_eligible_jobs_per_account},
      {"max_active_jobs_per_user", &l.max_active_jobs_per_user},
      {"max_submitted_jobs_per_user", &l.max_submitted_jobs_per_user},
  };
  for (const auto& [key, out] : counts) {
    if (!t.contains(key)) continue;
    std::int32_t v = 0;
    FAIRWAY_TRY(r.read_int(t, key, p, 1, 2147483647, v));
    *out = v;
  }
  for (auto [key, out] : {std::pair{"maxps_soft", &l.maxps_soft}, std::pair{"maxps_hard", &l.maxps_hard}}) {
    if (!t.contains(key)) continue;
    double v = 0;
    FAIRWAY_TRY(r.read_number(t, key, p, true, v));
    *out = v;
  }
  if (l.maxps_soft && l.maxps_hard && *l.maxps_hard < *l.maxps_soft) {
    return r.fail("limits.maxps_hard", "must be >= maxps_soft");
  }
  if (t.contains("maxps_per")) {
    std::string scope;
    FAIRWAY_TRY(r.read_string(t, "maxps_per", p, scope));
    if (scope == "user") {
      l.maxps_scope = LimitScope::kUser;
    } else if (scope == "account") {
      l.maxps_scope = LimitScope::kAccount;
    } else {
      return r.fail("limits.maxps_per", "invalid value '" + scope + "' (expected user or account)");
    }
  }
  if (t.contains("promote_blocked")) {
    std::string order;
    FAIRWAY_TRY(r.read_string(t, "promote_blocked", p, order));
    if (order == "priority") {
      l.promote_blocked = BlockedPromotion::kPriority;
    } else if (order == "newest") {
      l.promote_blocked = BlockedPromotion::kNewest;
    } else {
      return r.fail("limits.promote_blocked",
                    "invalid value '" + order + "' (expected priority or newest)");
    }
  }
  return ok_status();
}

}  // namespace fairway::config_internal
