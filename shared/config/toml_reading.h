// Typed reads of TOML values for the config parser, with errors that name the file, the key
// path and the bad value. Internal to fairway_config; shared by the config*.cpp files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "shared/base/result.h"
#include "shared/base/time.h"
#include "shared/base/try.h"

namespace fairway::config_internal {

// Partition and QOS names: they appear in CLI options and output columns.
bool is_name(std::string_view s);
// GPU types are matched against --gres=gpu:TYPE:N, which is lower-case by convention.
bool is_gpu_type(std::string_view s);
// Features end up in constraint expressions, so operators and spaces are kept out.
bool is_feature(std::string_view s);
// Users and accounts come from the site's directory: anything printable without spaces.
bool is_token(std::string_view s);

std::string indexed(std::string_view name, std::size_t i);
std::string key_path(std::string_view parent, std::string_view key);

// Each read_* leaves `out` untouched when the key is absent, so callers preset defaults.
class TomlReader {
 public:
  explicit TomlReader(std::string source) : source_(std::move(source)) {}

  std::unexpected<Error> fail(std::string_view path, const std::string& what) const;
  std::unexpected<Error> wrong_type(std::string_view path, std::string_view expected,
                                    const toml::node& got) const;

  Status check_keys(const toml::table& t, std::string_view path,
                    std::initializer_list<std::string_view> known) const;
  Status require(const toml::table& t, std::string_view key, std::string_view path) const;

  // Optional sub-table such as [scheduler]; nullptr when absent.
  Result<const toml::table*> sub_table(const toml::table& t, std::string_view key,
                                       std::string_view path) const;
  // [[name]] arrays of tables; empty when absent.
  Result<std::vector<const toml::table*>> table_array(const toml::table& t, std::string_view key) const;

  Status read_string(const toml::table& t, std::string_view key, std::string_view path,
                     std::string& out) const;
  Status read_bool(const toml::table& t, std::string_view key, std::string_view path, bool& out) const;

  // A string naming one of `choices`; absent leaves `out` as it is. Anything else is
  // "invalid value 'x' (expected a, b or c)".
  template <typename E>
  Status read_choice(const toml::table& t, std::string_view key, std::string_view path,
                     std::initializer_list<std::pair<const char*, E>> choices, E& out) const {
    if (!t.contains(key)) return ok_status();
    std::string text;
    if (auto st = read_string(t, key, path, text); !st) return st;
    std::string expected;
    std::size_t i = 0;
    for (const auto& [name, value] : choices) {
      if (name == text) {
        out = value;
        return ok_status();
      }
      expected += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + std::string(name);
      ++i;
    }
    return fail(key_path(path, key), "invalid value '" + text + "' (expected " + expected + ")");
  }

  template <typename Int>
  Status read_int(const toml::table& t, std::string_view key, std::string_view path, std::int64_t min,
                  std::int64_t max, Int& out) const {
    const toml::node* n = t.get(key);
    if (n == nullptr) return ok_status();
    const auto* i = n->as_integer();
    if (i == nullptr) return wrong_type(key_path(path, key), "an integer", *n);
    std::int64_t v = i->get();
    if (v < min) {
      return fail(key_path(path, key), "must be >= " + std::to_string(min) + ", got " + std::to_string(v));
    }
    if (v > max) {
      return fail(key_path(path, key), "must be <= " + std::to_string(max) + ", got " + std::to_string(v));
    }
    out = static_cast<Int>(v);
    return ok_status();
  }

  // Weights, priorities and shares: TOML integers or floats, finite, >= 0 (or > 0).
  Status read_number(const toml::table& t, std::string_view key, std::string_view path, bool must_be_positive,
                     double& out) const;
  Status number_value(const toml::node& n, const std::string& path, bool must_be_positive, double& out) const;

  // A time value: integer seconds, or a string in parse_span's grammar ("14d", "1:00:00").
  Status read_time(const toml::table& t, std::string_view key, std::string_view path, bool must_be_positive,
                   Duration& out) const;

  Status read_string_array(const toml::table& t, std::string_view key, std::string_view path,
                           std::vector<std::string>& out) const;

 private:
  std::string source_;
};

}  // namespace fairway::config_internal
