// The [limits] table: job-count caps and Maui MAXPS (seeds 000, 002, 004).
#include "shared/config/config_sections.h"
#include "shared/config/toml_reading.h"

namespace fairway::config_internal {

Status parse_limits(const TomlReader& r, const toml::table& root, Config& cfg) {
  FAIRWAY_TRY_ASSIGN(tbl, r.sub_table(root, "limits", ""));
  if (tbl == nullptr) return ok_status();
  const toml::table& t = *tbl;
  const char* p = "limits";
  FAIRWAY_TRY(r.check_keys(t, p,
                           {"max_eligible_jobs_per_user", "max_eligible_jobs_per_account",
                            "max_active_jobs_per_user", "max_submitted_jobs_per_user", "maxps_soft",
                            "maxps_hard", "maxps_per", "promote_blocked", "max_array_size"}));
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
  if (t.contains("max_array_size")) {
    FAIRWAY_TRY(r.read_int(t, "max_array_size", p, 1, 4000001, l.max_array_size));
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
  FAIRWAY_TRY(r.read_choice(t, "maxps_per", p,
                            {std::pair{"user", LimitScope::kUser}, {"account", LimitScope::kAccount}},
                            l.maxps_scope));
  FAIRWAY_TRY(r.read_choice(
      t, "promote_blocked", p,
      {std::pair{"priority", BlockedPromotion::kPriority}, {"newest", BlockedPromotion::kNewest}},
      l.promote_blocked));
  return ok_status();
}

}  // namespace fairway::config_internal
