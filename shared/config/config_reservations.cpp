// [[reservations]] (maintenance windows and project reservations) and the partition keys
// that let a killable partition's jobs run into them (Titan, seed 000).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>

#include "shared/config/config_sections.h"
#include "shared/config/hostlist.h"
#include "shared/config/toml_reading.h"

namespace fairway::config_internal {

namespace {

std::int64_t epoch_seconds(int year, unsigned month, unsigned day, int hour, int minute, int second,
                           int offset_minutes) {
  const std::chrono::sys_days d{std::chrono::year{year} / std::chrono::month{month} / std::chrono::day{day}};
  return d.time_since_epoch().count() * 86400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
}

// "2026-11-22T08:00:00Z": UTC only, so a config never depends on the host's time zone.
std::optional<std::int64_t> parse_iso_utc(const std::string& s) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0;
  char z = 0;
  int consumed = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c%n", &y, &mo, &d, &h, &mi, &se, &z, &consumed) != 7 ||
      z != 'Z' || static_cast<std::size_t>(consumed) != s.size()) {
    return std::nullopt;
  }
  const std::chrono::year_month_day ymd{std::chrono::year{y}, std::chrono::month{static_cast<unsigned>(mo)},
                                        std::chrono::day{static_cast<unsigned>(d)}};
  if (!ymd.ok() || h > 23 || mi > 59 || se > 59 || h < 0 || mi < 0 || se < 0) return std::nullopt;
  return epoch_seconds(y, static_cast<unsigned>(mo), static_cast<unsigned>(d), h, mi, se, 0);
}

Status read_start(const TomlReader& r, const toml::table& t, const std::string& path, Time& out) {
  const std::string where = key_path(path, "start");
  const toml::node* n = t.get("start");
  if (n == nullptr) return r.fail(where, "is required");
  if (const auto* i = n->as_integer()) {
    if (i->get() < 0) return r.fail(where, "must be >= 0 epoch seconds, got " + std::to_string(i->get()));
    out = Time::from_seconds(i->get());
    return ok_status();
  }
  if (const auto* s = n->as_string()) {
    auto secs = parse_iso_utc(s->get());
    if (!secs) {
      return r.fail(where,
                    "invalid time '" + s->get() + "' (expected epoch seconds or UTC 'YYYY-MM-DDTHH:MM:SSZ')");
    }
    out = Time::from_seconds(*secs);
    return ok_status();
  }
  if (const auto* dt = n->as_date_time()) {
    const toml::date_time& v = dt->get();
    if (!v.offset) return r.fail(where, "a TOML date-time needs an offset (Z or +HH:MM), got a local one");
    out = Time::from_seconds(epoch_seconds(v.date.year, v.date.month, v.date.day, v.time.hour, v.time.minute,
                                           v.time.second, v.offset->minutes));
    return ok_status();
  }
  return r.wrong_type(where, "epoch seconds or a UTC time 'YYYY-MM-DDTHH:MM:SSZ'", *n);
}

// A project reservation's keys (Titan): who it is for and when it is given back.
Status parse_project_reservation(const TomlReader& r, const toml::table& t, const std::string& path,
                                 const Config& cfg, ReservationConfig& res) {
  if (t.contains("account")) FAIRWAY_TRY(r.read_string(t, "account", path, res.account));
  if (t.contains("users")) FAIRWAY_TRY(r.read_string_array(t, "users", path, res.users));
  if (t.contains("cancel_below_use"))
    FAIRWAY_TRY(r.read_number(t, "cancel_below_use", path, false, res.cancel_below_use));
  if (t.contains("cancel_after")) FAIRWAY_TRY(r.read_time(t, "cancel_after", path, true, res.cancel_after));
  if (res.maintenance && res.project()) {
    return r.fail(path + ".account", "set on maintenance reservation '" + res.name +
                                         "': a reservation is either a maintenance or a project's");
  }
  if (!res.maintenance && !res.project()) {
    return r.fail(path, "reservation '" + res.name +
                            "' is neither a maintenance (flags = [\"maintenance\"]) nor "
                            "a project's (account = \"...\")");
  }
  if (!res.project()) {
    for (const char* key : {"users", "cancel_below_use", "cancel_after"}) {
      if (t.contains(key)) return r.fail(key_path(path, key), "is for project reservations (set account)");
    }
    return ok_status();
  }
  if (!is_name(res.account)) {
    return r.fail(path + ".account",
                  "invalid account name '" + res.account + "' (letters, digits, '_' and '-' only)");
  }
  if (!cfg.accounts.empty() && std::none_of(cfg.accounts.begin(), cfg.accounts.end(),
                                            [&](const AccountConfig& a) { return a.name == res.account; })) {
    return r.fail(path + ".account", "unknown account '" + res.account + "' (not in [[accounts]])");
  }
  for (const std::string& u : res.users) {
    if (u.empty()) return r.fail(path + ".users", "has an empty user name");
  }
  if (res.cancel_below_use < 0.0 || res.cancel_below_use > 1.0) {
    return r.fail(path + ".cancel_below_use",
                  "must be a fraction from 0 to 1 (0.5: cancel when under half its cores are used), got " +
                      std::to_string(res.cancel_below_use));
  }
  if (res.cancel_after.is_infinite() || res.cancel_after <= Duration::seconds(0)) {
    return r.fail(path + ".cancel_after", "must be a finite, positive duration");
  }
  return ok_status();
}

}  // namespace

Status parse_reservations(const TomlReader& r, const toml::table& root, Config& cfg,
                          const NodeGroups& node_group) {
  FAIRWAY_TRY_ASSIGN(arr, r.table_array(root, "reservations"));
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const toml::table& t = *(arr)[i];
    const std::string path = indexed("reservations", i);
    FAIRWAY_TRY(r.check_keys(t, path,
                             {"name", "start", "duration", "nodes", "flags", "account", "users",
                              "cancel_below_use", "cancel_after"}));
    for (const char* key : {"name", "start", "duration", "nodes"}) {
      FAIRWAY_TRY(r.require(t, key, path));
    }
    ReservationConfig res;
    FAIRWAY_TRY(r.read_string(t, "name", path, res.name));
    if (!is_name(res.name)) {
      return r.fail(path + ".name", "invalid name '" + res.name + "' (letters, digits, '_' and '-' only)");
    }
    for (const ReservationConfig& other : cfg.reservations) {
      if (other.name == res.name) return r.fail(path + ".name", "duplicate reservation '" + res.name + "'");
    }
    FAIRWAY_TRY(read_start(r, t, path, res.start));
    FAIRWAY_TRY(r.read_time(t, "duration", path, true, res.duration));
    if (res.duration.is_infinite()) {
      return r.fail(path + ".duration", "must be finite (a maintenance ends)");
    }
    std::string nodes;
    FAIRWAY_TRY(r.read_string(t, "nodes", path, nodes));
    if (nodes == "ALL") {
      res.all_nodes = true;
    } else {
      // A cluster whose nodes register (no [[nodes]]) can only name its nodes as ALL.
      FAIRWAY_TRY_ASSIGN(hosts, declared_hosts(r, path + ".nodes", nodes, node_group));
      res.nodes = std::move(hosts);
    }
    std::vector<std::string> flags;
    if (t.contains("flags")) FAIRWAY_TRY(r.read_string_array(t, "flags", path, flags));
    for (const std::string& f : flags) {
      if (f != "maintenance") {
        return r.fail(path + ".flags", "unsupported flag '" + f + "' (only \"maintenance\" is supported)");
      }
      res.maintenance = true;
    }
    FAIRWAY_TRY(parse_project_reservation(r, t, path, cfg, res));
    cfg.reservations.push_back(std::move(res));
  }
  return ok_status();
}

Status parse_partition_killable(const TomlReader& r, const toml::table& t, const std::string& path,
                                PartitionConfig& part) {
  FAIRWAY_TRY(r.read_bool(t, "killable", path, part.killable));
  FAIRWAY_TRY(r.read_time(t, "killable_cutoff", path, false, part.killable_cutoff));
  if (t.contains("killable_cutoff") && !part.killable) {
    return r.fail(path + ".killable_cutoff", "set on partition '" + part.name + "', which is not killable");
  }
  if (part.killable_cutoff.is_infinite()) {
    return r.fail(path + ".killable_cutoff", "must be finite");
  }
  return ok_status();
}

}  // namespace fairway::config_internal
