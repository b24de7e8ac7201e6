// Access keys of a partition or QOS (Slurm's AllowAccounts, DenyAccounts, AllowGroups,
// AllowQos, DenyQos): lists of names, an allow list and its deny list never both.
#include "shared/config/config_sections.h"

namespace fairway::config_internal {

namespace {

Status read_names(const TomlReader& r, const toml::table& t, const std::string& path, const char* key,
                  std::vector<std::string>& out) {
  FAIRWAY_TRY(r.read_string_array(t, key, path, out));
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i].empty()) return r.fail(indexed(path + "." + key, i), "empty name");
  }
  // An empty list would read as "no rule", the opposite of what `allow_... = []` says.
  if (t.contains(key) && out.empty()) {
    return r.fail(path + "." + key, "empty list (leave the key out to impose nothing)");
  }
  return ok_status();
}

Status exclusive(const TomlReader& r, const toml::table& t, const std::string& path, const char* allow,
                 const char* deny) {
  if (t.contains(allow) && t.contains(deny)) {
    return r.fail(path + "." + deny, std::string("set together with ") + allow +
                                         " (as in Slurm, a list either allows or denies, not both)");
  }
  return ok_status();
}

}  // namespace

Status parse_access_rules(const TomlReader& r, const toml::table& t, const std::string& path, bool partition,
                          AccessRules& out) {
  FAIRWAY_TRY(exclusive(r, t, path, "allow_accounts", "deny_accounts"));
  FAIRWAY_TRY(read_names(r, t, path, "allow_accounts", out.allow_accounts));
  FAIRWAY_TRY(read_names(r, t, path, "deny_accounts", out.deny_accounts));
  if (!partition) return ok_status();
  FAIRWAY_TRY(exclusive(r, t, path, "allow_qos", "deny_qos"));
  FAIRWAY_TRY(read_names(r, t, path, "allow_groups", out.allow_groups));
  FAIRWAY_TRY(read_names(r, t, path, "allow_qos", out.allow_qos));
  FAIRWAY_TRY(read_names(r, t, path, "deny_qos", out.deny_qos));
  return ok_status();
}

}  // namespace fairway::config_internal
