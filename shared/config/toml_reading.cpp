#include "shared/config/toml_reading.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "shared/base/duration_format.h"

namespace fairway::config_internal {
namespace {

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

}  // namespace

bool is_name(std::string_view s) {
  return chars_all(s, [](unsigned char c) { return is_alnum(c) || c == '_' || c == '-'; });
}

bool is_gpu_type(std::string_view s) {
  return chars_all(s, [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

bool is_feature(std::string_view s) {
  return chars_all(s, [](unsigned char c) { return is_alnum(c) || c == '_' || c == '-' || c == '.'; });
}

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

std::unexpected<Error> TomlReader::fail(std::string_view path, const std::string& what) const {
  return invalid_argument(source_ + ": " + std::string(path) + ": " + what);
}

std::unexpected<Error> TomlReader::wrong_type(std::string_view path, std::string_view expected,
                                              const toml::node& got) const {
  return fail(path, "expected " + std::string(expected) + ", got " + describe(got));
}

Status TomlReader::check_keys(const toml::table& t, std::string_view path,
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

Status TomlReader::require(const toml::table& t, std::string_view key, std::string_view path) const {
  if (t.contains(key)) return ok_status();
  return fail(key_path(path, key), "required key is missing");
}

Result<const toml::table*> TomlReader::sub_table(const toml::table& t, std::string_view key,
                                                 std::string_view path) const {
  const toml::node* n = t.get(key);
  if (n == nullptr) return nullptr;
  if (const auto* tbl = n->as_table()) return tbl;
  return wrong_type(key_path(path, key), "a table", *n);
}

Result<std::vector<const toml::table*>> TomlReader::table_array(const toml::table& t,
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

Status TomlReader::read_string(const toml::table& t, std::string_view key, std::string_view path,
                               std::string& out) const {
  const toml::node* n = t.get(key);
  if (n == nullptr) return ok_status();
  const auto* s = n->as_string();
  if (s == nullptr) return wrong_type(key_path(path, key), "a string", *n);
  out = s->get();
  return ok_status();
}

Status TomlReader::read_bool(const toml::table& t, std::string_view key, std::string_view path,
                             bool& out) const {
  const toml::node* n = t.get(key);
  if (n == nullptr) return ok_status();
  const auto* b = n->as_boolean();
  if (b == nullptr) return wrong_type(key_path(path, key), "a boolean", *n);
  out = b->get();
  return ok_status();
}

Status TomlReader::read_number(const toml::table& t, std::string_view key, std::string_view path,
                               bool must_be_positive, double& out) const {
  const toml::node* n = t.get(key);
  if (n == nullptr) return ok_status();
  return number_value(*n, key_path(path, key), must_be_positive, out);
}

Status TomlReader::number_value(const toml::node& n, const std::string& path, bool must_be_positive,
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

Status TomlReader::read_time(const toml::table& t, std::string_view key, std::string_view path,
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

Status TomlReader::read_string_array(const toml::table& t, std::string_view key, std::string_view path,
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

}  // namespace fairway::config_internal
