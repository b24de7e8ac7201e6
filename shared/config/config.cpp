#include "shared/config/config.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "shared/base/duration_format.h"
#include "shared/config/hostlist.h"

// Propagates the error of a Status-returning call; keeps the validation code readable.
#define FAIRWAY_TRY(expr)                                             \
  do {                                                                \
    if (auto fairway_try_status_ = (expr); !fairway_try_status_) {    \
      return std::unexpected(std::move(fairway_try_status_.error())); \
    }                                                                 \
  } while (false)

namespace fairway {
namespace {

// Bounds that keep per-node arithmetic (total cores, PU counts) far from int32 overflow.
constexpr std::int64_t kMaxSockets = 1024;
constexpr std::int64_t kMaxCoresPerSocket = 65536;
constexpr std::int64_t kMaxThreadsPerCore = 1024;
constexpr std::int64_t kMaxGpusPerSocket = 1024;
constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

std::string format_double(double v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  if (ec != std::errc()) return "?";
  return std::string(buf, end);
}

// The value as an admin would recognise it in the file: type and, for scalars, the value.
std::string describe(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string:
      return "string '" + n.as_string()->get() + "'";
    case toml::node_type::integer:
      return "integer " + std::to_string(n.as_integer()->get());
    case toml::node_type::floating_point:
      return "float " + format_double(n.as_floating_point()->get());
    case toml::node_type::boolean:
      return std::string("boolean ") + (n.as_boolean()->get() ? "true" : "false");
    case toml::node_type::table:
      return "table";
    case toml::node_type::array:
      return "array";
    case toml::node_type::date:
    case toml::node_type::time:
    case toml::node_type::date_time:
      return "date/time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

bool chars_all(std::string_view s, auto pred) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!pred(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

bool is_alnum(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Partition and QOS names: they appear in CLI options and output columns.
bool is_name(std::string_view s) {
  return chars_all(s, [](unsigned char c) { return is_alnum(c) || c == '_' || c == '-'; });
}

// GPU types are matched against --gres=gpu:TYPE:N, which is lower-case by convention.
bool is_gpu_type(std::string_view s) {
  return chars_all(s, [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

// Features end up in constraint expressions, so operators and spaces are kept out.
bool is_feature(std::string_view s) {
  return chars_all(s, [](unsigned char c) {
    return is_alnum(c) || c == '_' || c == '-' || c == '.';
  });
}

// Users and accounts come from the site's directory: anything printable without spaces.
bool is_token(std::string_view s) {
  return chars_all(s, [](unsigned char c) { return c > 0x20 && c != 0x7f && c != ','; });
}

std::string indexed(std::string_view name, std::size_t i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

std::string key_path(std::string_view parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  return std::string(parent) + "." + std::string(key);
}

class ConfigParser {
 public:
  explicit ConfigParser(std::string_view source)
      : source_(source.empty() ? std::string("config") : std::string(source)) {}

  Result<Config> parse(const toml::table& root) {
    Config cfg;
    FAIRWAY_TRY(check_keys(root, "", {"cluster", "nodes", "partitions", "qos", "accounts",
                                      "scheduler", "priority", "fairshare", "billing"}));
    FAIRWAY_TRY(parse_cluster(root, cfg));
    FAIRWAY_TRY(parse_nodes(root, cfg));
    FAIRWAY_TRY(parse_partitions(root, cfg));
    FAIRWAY_TRY(parse_qos(root, cfg));
    FAIRWAY_TRY(parse_accounts(root, cfg));
    FAIRWAY_TRY(parse_scheduler(root, cfg));
    FAIRWAY_TRY(parse_priority(root, cfg));
    FAIRWAY_TRY(parse_fairshare(root, cfg));
    FAIRWAY_TRY(parse_billing(root, cfg));
    return cfg;
  }

 private:
  std::unexpected<Error> fail(std::string_view path, const std::string& what) const {
    return invalid_argument(source_ + ": " + std::string(path) + ": " + what);
  }

  std::unexpected<Error> wrong_type(std::string_view path, std::string_view expected,
                                    const toml::node& got) const {
    return fail(path, "expected " + std::string(expected) + ", got " + describe(got));
  }

  Status check_keys(const toml::table& t, std::string_view path,
                    std::initializer_list<std::string_view> known) const {
    for (auto&& [k, v] : t) {
      bool found = false;
      for (std::string_view name : known) found = found || name == k.str();
      if (found) continue;
      std::string list;
      for (std::string_view name : known) {
        if (!list.empty()) list += ", ";
        list += name;
      }
      return fail(key_path(path, k.str()), "unknown key (expected one of: " + list + ")");
    }
    return ok_status();
  }

  Status require(const toml::table& t, std::string_view key, std::string_view path) const {
    if (t.contains(key)) return ok_status();
    return fail(key_path(path, key), "required key is missing");
  }

  // Optional sub-table such as [scheduler]; nullptr when absent.
  Result<const toml::table*> sub_table(const toml::table& t, std::string_view key,
                                       std::string_view path) const {
    const toml::node* n = t.get(key);
    if (n == nullptr) return nullptr;
    if (const auto* tbl = n->as_table()) return tbl;
    return wrong_type(key_path(path, key), "a table", *n);
  }

  // [[name]] arrays of tables; empty when absent.
  Result<std::vector<const toml::table*>> table_array(const toml::table& t,
                                                      std::string_view key) const {
    std::vector<const toml::table*> out;
    const toml::node* n = t.get(key);
    if (n == nullptr) return out;
    const auto* arr = n->as_array();
    if (arr == nullptr) {
      return wrong_type(key, "an array of tables ([[" + std::string(key) + "]])", *n);
    }
    for (std::size_t i = 0; i < arr->size(); ++i) {
      const toml::node& el = *arr->get(i);
      const auto* tbl = el.as_table();
      if (tbl == nullptr) return wrong_type(indexed(key, i), "a table", el);
      out.push_back(tbl);
    }
    return out;
  }

  Status read_string(const toml::table& t, std::string_view key, std::string_view path,
                     std::string& out) const {
    const toml::node* n = t.get(key);
    if (n == nullptr) return ok_status();
    const auto* s = n->as_string();
    if (s == nullptr) return wrong_type(key_path(path, key), "a string", *n);
    out = s->get();
    return ok_status();
  }

  Status read_bool(const toml::table& t, std::string_view key, std::string_view path,
                   bool& out) const {
    const toml::node* n = t.get(key);
    if (n == nullptr) return ok_status();
    const auto* b = n->as_boolean();
    if (b == nullptr) return wrong_type(key_path(path, key), "a boolean", *n);
    out = b->get();
    return ok_status();
  }

  template <typename Int>
  Status read_int(const toml::table& t, std::string_view key, std::string_view path,
                  std::int64_t min, std::int64_t max, Int& out) const {
    const toml::node* n = t.get(key);
    if (n == nullptr) return ok_status();
    const auto* i = n->as_integer();
    if (i == nullptr) return wrong_type(key_path(path, key), "an integer", *n);
    std::int64_t v = i->get();
    if (v < min) {
      return fail(key_path(path, key),
                  "must be >= " + std::to_string(min) + ", got " + std::to_string(v));
    }
    if (v > max) {
      return fail(key_path(path, key),
                  "must be <= " + std::to_string(max) + ", got " + std::to_string(v));
    }
    out = static_cast<Int>(v);
    return ok_status();
  }

  // Weights, priorities and shares: TOML integers or floats, finite, >= 0 (or > 0).
  Status read_number(const toml::table& t, std::string_view key, std::string_view path,
                     bool must_be_positive, double& out) const {
    const toml::node* n = t.get(key);
    if (n == nullptr) return ok_status();
    return number_value(*n, key_path(path, key), must_be_positive, out);
  }

  Status number_value(const toml::node& n, const std::string& path, bool must_be_positive,
                      double& out) const {
    double v = 0.0;
    if (const auto* i = n.as_integer()) {
      v = static_cast<double>(i->get());
    } else if (const auto* f = n.as_floating_point()) {
      v = f->get();
    } else {
      return wrong_type(path, "a number", n);
    }
    if (!std::isfinite(v)) return fail(path, "must be a finite number, got " + format_double(v));
    if (must_be_positive && !(v > 0.0)) return fail(path, "must be > 0, got " + format_double(v));
    if (v < 0.0) return fail(path, "must be >= 0, got " + format_double(v));
    out = v;
    return ok_status();
  }

  // A time value: integer seconds, or a string in parse_span's grammar ("14d", "1:00:00").
  Status read_time(const toml::table& t, std::string_view key, std::string_view path,
                   bool must_be_positive, Duration& out) const {
    const toml::node* n = t.get(key);
    if (n == nullptr) return ok_status();
    std::string where = key_path(path, key);
    Duration d;
    std::string shown;
    if (const auto* i = n->as_integer()) {
      if (i->get() < 0) return fail(where, "must be >= 0 seconds, got " + std::to_string(i->get()));
      d = Duration::seconds(i->get());
      shown = std::to_string(i->get());
    } else if (const auto* s = n->as_string()) {
      auto parsed = parse_span(s->get());
      if (!parsed) return fail(where, parsed.error().message);
      d = *parsed;
      shown = "'" + s->get() + "'";
    } else {
      return wrong_type(where, "a time (integer seconds or a string such as \"2h\")", *n);
    }
    if (must_be_positive && d.count() <= 0) return fail(where, "must be > 0, got " + shown);
    out = d;
    return ok_status();
  }

  Status read_string_array(const toml::table& t, std::string_view key, std::string_view path,
                           std::vector<std::string>& out) const {
    const toml::node* n = t.get(key);
    if (n == nullptr) return ok_status();
    std::string where = key_path(path, key);
    const auto* arr = n->as_array();
    if (arr == nullptr) return wrong_type(where, "an array of strings", *n);
    out.clear();
    for (std::size_t i = 0; i < arr->size(); ++i) {
      const toml::node& el = *arr->get(i);
      const auto* s = el.as_string();
      if (s == nullptr) return wrong_type(indexed(where, i), "a string", el);
      out.push_back(s->get());
    }
    return ok_status();
  }

  Status parse_cluster(const toml::table& root, Config& cfg) const {
    auto tbl = sub_table(root, "cluster", "");
    if (!tbl) return std::unexpected(tbl.error());
    if (*tbl == nullptr) return ok_status();
    const toml::table& t = **tbl;
    FAIRWAY_TRY(check_keys(t, "cluster", {"name"}));
    FAIRWAY_TRY(read_string(t, "name", "cluster", cfg.cluster_name));
    if (!is_token(cfg.cluster_name)) {
      return fail("cluster.name", "invalid name '" + cfg.cluster_name +
                                      "' (must be non-empty, without spaces or commas)");
    }
    return ok_status();
  }

  Status parse_nodes(const toml::table& root, Config& cfg) {
    auto groups = table_array(root, "nodes");
    if (!groups) return std::unexpected(groups.error());
    for (std::size_t g = 0; g < groups->size(); ++g) {
      const toml::table& t = *(*groups)[g];
      std::string path = indexed("nodes", g);
      FAIRWAY_TRY(check_keys(t, path, {"names", "sockets", "cores_per_socket", "threads_per_core",
                                       "memory_mb", "gpus_per_socket", "gpu_type", "features"}));
      FAIRWAY_TRY(require(t, "names", path));
      FAIRWAY_TRY(require(t, "cores_per_socket", path));
      std::string names;
      std::int32_t sockets = 1;
      std::int32_t cores_per_socket = 1;
      std::int32_t threads_per_core = 1;
      std::int64_t memory_mb = 0;
      std::int32_t gpus_per_socket = 0;
      std::string gpu_type;
      std::vector<std::string> features;
      FAIRWAY_TRY(read_string(t, "names", path, names));
      FAIRWAY_TRY(read_int(t, "sockets", path, 1, kMaxSockets, sockets));
      FAIRWAY_TRY(read_int(t, "cores_per_socket", path, 1, kMaxCoresPerSocket, cores_per_socket));
      FAIRWAY_TRY(read_int(t, "threads_per_core", path, 1, kMaxThreadsPerCore, threads_per_core));
      FAIRWAY_TRY(read_int(t, "memory_mb", path, 0, std::numeric_limits<std::int64_t>::max(),
                           memory_mb));
      FAIRWAY_TRY(read_int(t, "gpus_per_socket", path, 0, kMaxGpusPerSocket, gpus_per_socket));
      FAIRWAY_TRY(read_string(t, "gpu_type", path, gpu_type));
      FAIRWAY_TRY(read_string_array(t, "features", path, features));

      if (t.contains("gpu_type") && !is_gpu_type(gpu_type)) {
        return fail(path + ".gpu_type", "invalid GPU type '" + gpu_type +
                                            "' (lower-case letters, digits, '_' and '-')");
      }
      if (gpus_per_socket > 0 && !t.contains("gpu_type")) {
        return fail(path + ".gpu_type", "required when gpus_per_socket > 0 (gpus_per_socket = " +
                                            std::to_string(gpus_per_socket) + ")");
      }
      for (std::size_t i = 0; i < features.size(); ++i) {
        if (!is_feature(features[i])) {
          return fail(indexed(path + ".features", i),
                      "invalid feature '" + features[i] + "' (letters, digits, '_', '-' and '.')");
        }
      }

      auto hosts = expand_hostlist(names);
      if (!hosts) return fail(path + ".names", hosts.error().message);
      for (auto& host : *hosts) {
        auto [it, inserted] = node_group_.emplace(host, g);
        if (!inserted) {
          return fail(path + ".names", "duplicate node '" + host + "' (already in " +
                                           indexed("nodes", it->second) + ")");
        }
        NodeTopology node = NodeTopology::uniform(std::move(host), sockets, cores_per_socket,
                                                  gpus_per_socket, gpu_type, threads_per_core);
        node.memory_mb = memory_mb;
        node.features = features;
        cfg.nodes.push_back(std::move(node));
      }
    }
    return ok_status();
  }

  std::vector<std::string> all_node_names(const Config& cfg) const {
    std::vector<std::string> names;
    names.reserve(cfg.nodes.size());
    for (const auto& n : cfg.nodes) names.push_back(n.name);
    return names;
  }

  Status parse_partitions(const toml::table& root, Config& cfg) const {
    auto parts = table_array(root, "partitions");
    if (!parts) return std::unexpected(parts.error());
    std::optional<std::size_t> default_index;
    for (std::size_t p = 0; p < parts->size(); ++p) {
      const toml::table& t = *(*parts)[p];
      std::string path = indexed("partitions", p);
      FAIRWAY_TRY(check_keys(t, path, {"name", "nodes", "default", "max_time", "default_time",
                                       "priority"}));
      FAIRWAY_TRY(require(t, "name", path));
      PartitionConfig part;
      FAIRWAY_TRY(read_string(t, "name", path, part.name));
      if (!is_name(part.name)) {
        return fail(path + ".name", "invalid name '" + part.name +
                                        "' (letters, digits, '_' and '-' only)");
      }
      for (std::size_t q = 0; q < p; ++q) {
        if (cfg.partitions[q].name == part.name) {
          return fail(path + ".name", "duplicate partition '" + part.name + "' (already " +
                                          indexed("partitions", q) + ")");
        }
      }

      std::string nodes = "ALL";
      FAIRWAY_TRY(read_string(t, "nodes", path, nodes));
      if (nodes == "ALL") {
        part.nodes = all_node_names(cfg);
      } else {
        auto hosts = expand_hostlist(nodes);
        if (!hosts) return fail(path + ".nodes", hosts.error().message);
        std::set<std::string> seen;
        for (auto& host : *hosts) {
          if (!node_group_.contains(host)) {
            return fail(path + ".nodes", "unknown node '" + host + "' in '" + nodes + "'");
          }
          // Listing a node twice ("cn[1-4],cn2") is harmless; keep the first mention.
          if (seen.insert(host).second) part.nodes.push_back(std::move(host));
        }
      }

      FAIRWAY_TRY(read_bool(t, "default", path, part.is_default));
      if (part.is_default) {
        if (default_index) {
          return fail(path + ".default",
                      "more than one default partition ('" + cfg.partitions[*default_index].name +
                          "' in " + indexed("partitions", *default_index) + " and '" +
                          part.name + "' here)");
        }
        default_index = p;
      }

      FAIRWAY_TRY(read_time(t, "max_time", path, true, part.max_time));
      FAIRWAY_TRY(read_time(t, "default_time", path, true, part.default_time));
      if (!t.contains("default_time")) {
        part.default_time = std::min(part.default_time, part.max_time);
      } else if (part.default_time > part.max_time) {
        return fail(path + ".default_time", "'" + format_walltime(part.default_time) +
                                                "' exceeds max_time '" +
                                                format_walltime(part.max_time) + "'");
      }
      FAIRWAY_TRY(read_number(t, "priority", path, false, part.priority));
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

  Status parse_qos(const toml::table& root, Config& cfg) const {
    auto entries = table_array(root, "qos");
    if (!entries) return std::unexpected(entries.error());
    for (std::size_t i = 0; i < entries->size(); ++i) {
      const toml::table& t = *(*entries)[i];
      std::string path = indexed("qos", i);
      FAIRWAY_TRY(check_keys(t, path, {"name", "priority", "max_time"}));
      FAIRWAY_TRY(require(t, "name", path));
      QosConfig qos;
      FAIRWAY_TRY(read_string(t, "name", path, qos.name));
      if (!is_name(qos.name)) {
        return fail(path + ".name",
                    "invalid name '" + qos.name + "' (letters, digits, '_' and '-' only)");
      }
      for (std::size_t j = 0; j < i; ++j) {
        if (cfg.qos[j].name == qos.name) {
          return fail(path + ".name",
                      "duplicate qos '" + qos.name + "' (already " + indexed("qos", j) + ")");
        }
      }
      FAIRWAY_TRY(read_number(t, "priority", path, false, qos.priority));
      FAIRWAY_TRY(read_time(t, "max_time", path, true, qos.max_time));
      cfg.qos.push_back(std::move(qos));
    }
    return ok_status();
  }

  Status parse_accounts(const toml::table& root, Config& cfg) const {
    auto entries = table_array(root, "accounts");
    if (!entries) return std::unexpected(entries.error());
    for (std::size_t i = 0; i < entries->size(); ++i) {
      const toml::table& t = *(*entries)[i];
      std::string path = indexed("accounts", i);
      FAIRWAY_TRY(check_keys(t, path, {"name", "shares", "users"}));
      FAIRWAY_TRY(require(t, "name", path));
      AccountConfig acct;
      FAIRWAY_TRY(read_string(t, "name", path, acct.name));
      if (!is_token(acct.name)) {
        return fail(path + ".name", "invalid name '" + acct.name +
                                        "' (must be non-empty, without spaces or commas)");
      }
      for (std::size_t j = 0; j < i; ++j) {
        if (cfg.accounts[j].name == acct.name) {
          return fail(path + ".name", "duplicate account '" + acct.name + "' (already " +
                                          indexed("accounts", j) + ")");
        }
      }
      FAIRWAY_TRY(read_number(t, "shares", path, true, acct.shares));
      FAIRWAY_TRY(read_string_array(t, "users", path, acct.users));
      std::set<std::string_view> seen;
      for (std::size_t u = 0; u < acct.users.size(); ++u) {
        const std::string& user = acct.users[u];
        if (!is_token(user)) {
          return fail(indexed(path + ".users", u),
                      "invalid user '" + user + "' (must be non-empty, without spaces or commas)");
        }
        if (!seen.insert(user).second) {
          return fail(indexed(path + ".users", u), "duplicate user '" + user + "'");
        }
      }
      cfg.accounts.push_back(std::move(acct));
    }
    return ok_status();
  }

  Status parse_scheduler(const toml::table& root, Config& cfg) const {
    auto tbl = sub_table(root, "scheduler", "");
    if (!tbl) return std::unexpected(tbl.error());
    if (*tbl == nullptr) return ok_status();
    const toml::table& t = **tbl;
    FAIRWAY_TRY(check_keys(t, "scheduler", {"backfill", "reservation_depth"}));
    if (t.contains("backfill")) {
      std::string mode;
      FAIRWAY_TRY(read_string(t, "backfill", "scheduler", mode));
      if (mode == "none") {
        cfg.scheduler.backfill = BackfillMode::kNone;
      } else if (mode == "easy") {
        cfg.scheduler.backfill = BackfillMode::kEasy;
      } else if (mode == "conservative") {
        cfg.scheduler.backfill = BackfillMode::kConservative;
      } else {
        return fail("scheduler.backfill",
                    "invalid value '" + mode + "' (expected none, easy or conservative)");
      }
    }
    if (t.contains("reservation_depth")) {
      std::int32_t depth = 0;
      FAIRWAY_TRY(read_int(t, "reservation_depth", "scheduler", 0, kInt32Max, depth));
      cfg.scheduler.reservation_depth = depth;
    }
    return ok_status();
  }

  Status parse_priority(const toml::table& root, Config& cfg) const {
    auto tbl = sub_table(root, "priority", "");
    if (!tbl) return std::unexpected(tbl.error());
    if (*tbl == nullptr) return ok_status();
    const toml::table& t = **tbl;
    const char* p = "priority";
    FAIRWAY_TRY(check_keys(t, p, {"age_per_minute", "age_cap", "fairshare", "size", "partition",
                                  "qos"}));
    PriorityWeights& w = cfg.priority;
    FAIRWAY_TRY(read_number(t, "age_per_minute", p, false, w.age_per_minute));
    FAIRWAY_TRY(read_time(t, "age_cap", p, false, w.age_cap));
    FAIRWAY_TRY(read_number(t, "fairshare", p, false, w.fairshare));
    FAIRWAY_TRY(read_number(t, "size", p, false, w.size));
    FAIRWAY_TRY(read_number(t, "partition", p, false, w.partition));
    FAIRWAY_TRY(read_number(t, "qos", p, false, w.qos));
    return ok_status();
  }

  Status parse_fairshare(const toml::table& root, Config& cfg) const {
    auto tbl = sub_table(root, "fairshare", "");
    if (!tbl) return std::unexpected(tbl.error());
    if (*tbl == nullptr) return ok_status();
    const toml::table& t = **tbl;
    FAIRWAY_TRY(check_keys(t, "fairshare", {"half_life"}));
    FAIRWAY_TRY(read_time(t, "half_life", "fairshare", true, cfg.fairshare.half_life));
    return ok_status();
  }

  Status parse_billing(const toml::table& root, Config& cfg) const {
    auto tbl = sub_table(root, "billing", "");
    if (!tbl) return std::unexpected(tbl.error());
    if (*tbl == nullptr) return ok_status();
    const toml::table& t = **tbl;
    FAIRWAY_TRY(check_keys(t, "billing", {"cpu", "gpu"}));
    FAIRWAY_TRY(read_number(t, "cpu", "billing", false, cfg.billing.cpu));
    auto gpu = sub_table(t, "gpu", "billing");
    if (!gpu) return std::unexpected(gpu.error());
    if (*gpu == nullptr) return ok_status();
    for (auto&& [k, v] : **gpu) {
      std::string type(k.str());
      std::string path = "billing.gpu." + type;
      if (!is_gpu_type(type)) {
        return fail(path, "invalid GPU type '" + type +
                              "' (lower-case letters, digits, '_' and '-')");
      }
      double weight = 0.0;
      FAIRWAY_TRY(number_value(v, path, false, weight));
      cfg.billing.gpu[type] = weight;
    }
    return ok_status();
  }

  std::string source_;
  // Node name -> index of the [[nodes]] group that declared it; for duplicates and lookups.
  std::unordered_map<std::string, std::size_t> node_group_;
};

}  // namespace

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
      return invalid_argument(src + ":" + std::to_string(where.line) + ":" +
                              std::to_string(where.column) + ": " + std::string(e.description()));
    }
    return ConfigParser(src).parse(root);
  } catch (const std::exception& e) {
    // Only allocation failures can get here; they must still not cross the module boundary.
    return make_error(ErrorCode::kInternal, src + ": " + e.what());
  }
}

}  // namespace fairway

#undef FAIRWAY_TRY
