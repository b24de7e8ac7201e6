#include "shared/wire/msgpack_io.h"

#include "shared/wire/field_list.h"

#include "shared/base/terminal_text.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace fairway::wire::detail {
namespace {

using Obj = msgpack::object;

std::string index_path(const std::string& base, std::size_t i) {
  return base + "[" + std::to_string(i) + "]";
}

// Where a value sits ("JobQueryReply.jobs[3].name"), spelled out only when it is wrong:
// a reply of thousands of views reads every field, and nearly never fails.
struct FieldPath {
  const std::string& base;
  std::string_view key;
  std::optional<std::size_t> index;
  std::string str() const {
    std::string out = base + "." + std::string(key);
    return index ? index_path(out, *index) : out;
  }
};

// Each reader checks the type tag before touching the union, so a hostile frame can never
// make us read the wrong member.
std::optional<std::int64_t> read_i64(const Obj& o, Errors& e, const FieldPath& path, std::int64_t min,
                                     std::int64_t max) {
  std::int64_t v = 0;
  if (o.type == msgpack::type::POSITIVE_INTEGER) {
    if (o.via.u64 > static_cast<std::uint64_t>(max)) {
      e.fail(path.str(), "integer out of range");
      return std::nullopt;
    }
    v = static_cast<std::int64_t>(o.via.u64);
  } else if (o.type == msgpack::type::NEGATIVE_INTEGER) {
    v = o.via.i64;
  } else {
    e.fail(path.str(), "expected integer");
    return std::nullopt;
  }
  if (v < min || v > max) {
    e.fail(path.str(), "integer out of range");
    return std::nullopt;
  }
  return v;
}

std::optional<std::string> read_str(const Obj& o, Errors& e, const FieldPath& path, std::size_t max_bytes) {
  if (o.type != msgpack::type::STR) {
    e.fail(path.str(), "expected string");
    return std::nullopt;
  }
  if (o.via.str.size > max_bytes) {
    e.fail(path.str(), "string too long");
    return std::nullopt;
  }
  const std::string_view text(o.via.str.ptr, o.via.str.size);
  return e.escape_control ? fairway::escape_control(text) : std::string(text);
}

// The elements of an array, or nullopt (error recorded) when `o` is not an array within
// bounds.
std::optional<std::vector<const Obj*>> read_array(const Obj& o, Errors& e, const FieldPath& path,
                                                  std::size_t max_entries) {
  if (o.type != msgpack::type::ARRAY) {
    e.fail(path.str(), "expected array");
    return std::nullopt;
  }
  if (o.via.array.size > max_entries) {
    e.fail(path.str(), "has " + std::to_string(o.via.array.size) + " entries; at most " +
                           std::to_string(max_entries) + " are accepted");
    return std::nullopt;
  }
  std::vector<const Obj*> out;
  out.reserve(o.via.array.size);
  for (std::uint32_t i = 0; i < o.via.array.size; ++i) out.push_back(&o.via.array.ptr[i]);
  return out;
}

}  // namespace

void put(Packer& pk, std::string_view s) {
  pk.pack_str(static_cast<std::uint32_t>(s.size()));
  pk.pack_str_body(s.data(), static_cast<std::uint32_t>(s.size()));
}
void put(Packer& pk, std::int64_t v) {
  pk.pack_int64(v);
}
void put(Packer& pk, std::uint64_t v) {
  pk.pack_uint64(v);
}
void put(Packer& pk, std::int32_t v) {
  pk.pack_int32(v);
}
void put(Packer& pk, bool v) {
  if (v) {
    pk.pack_true();
  } else {
    pk.pack_false();
  }
}
void put(Packer& pk, double v) {
  pk.pack_double(v);
}
void put(Packer& pk, const std::vector<JobId>& v) {
  pk.pack_array(static_cast<std::uint32_t>(v.size()));
  for (JobId id : v) put(pk, id.value());
}
// Both by their field lists (field_codecs.h), as the messages that carry them.
void put(Packer& pk, const std::vector<DependencyClause>& v) {
  Codec<std::vector<DependencyClause>>::put(pk, v);
}
void put(Packer& pk, const NodeTopology& t) {
  write_fields(pk, t);
}
void put(Packer& pk, const std::vector<std::int32_t>& v) {
  pk.pack_array(static_cast<std::uint32_t>(v.size()));
  for (std::int32_t x : v) put(pk, x);
}
void put(Packer& pk, const std::vector<std::string>& v) {
  pk.pack_array(static_cast<std::uint32_t>(v.size()));
  for (const auto& s : v) put(pk, std::string_view(s));
}
// Pairs, not a map: order matters and a key may repeat, as in a real environment.
void put(Packer& pk, const std::vector<EnvVar>& v) {
  pk.pack_array(static_cast<std::uint32_t>(v.size()));
  for (const auto& [k, val] : v) {
    pk.pack_array(2);
    put(pk, std::string_view(k));
    put(pk, std::string_view(val));
  }
}

void Errors::fail(const std::string& path, std::string_view what) {
  if (error_) return;
  error_ = Error{ErrorCode::kInvalidArgument, "wire: " + path + ": " + std::string(what)};
}

Error Errors::take() const {
  return error_.value_or(Error{ErrorCode::kInternal, "wire: no error recorded"});
}

MapReader::MapReader(Errors& errors, const msgpack::object* obj, std::string path)
    : errors_(errors), obj_(obj), path_(std::move(path)) {
  if (obj_ != nullptr && obj_->type != msgpack::type::MAP) {
    errors_.fail(path_, "expected map");
    obj_ = nullptr;
  }
}

std::string MapReader::path_of(std::string_view key) const {
  return path_ + "." + std::string(key);
}

const msgpack::object* MapReader::find(std::string_view key) {
  if (obj_ == nullptr || errors_.failed()) return nullptr;
  const auto& m = obj_->via.map;
  for (std::uint32_t i = 0; i < m.size; ++i) {
    const Obj& k = m.ptr[i].key;
    if (k.type == msgpack::type::STR && std::string_view(k.via.str.ptr, k.via.str.size) == key) {
      return &m.ptr[i].val;
    }
  }
  errors_.fail(path_of(key), "missing");
  return nullptr;
}

std::string MapReader::str(std::string_view key, std::size_t max_bytes) {
  const Obj* o = find(key);
  if (o == nullptr) return {};
  return read_str(*o, errors_, FieldPath{path_, key, {}}, max_bytes).value_or(std::string{});
}

std::uint64_t MapReader::u64(std::string_view key) {
  const Obj* o = find(key);
  if (o == nullptr) return 0;
  if (o->type != msgpack::type::POSITIVE_INTEGER) {
    errors_.fail(path_of(key), "expected unsigned integer");
    return 0;
  }
  return o->via.u64;
}

std::int64_t MapReader::i64(std::string_view key, std::int64_t min) {
  const Obj* o = find(key);
  if (o == nullptr) return 0;
  return read_i64(*o, errors_, FieldPath{path_, key, {}}, min, std::numeric_limits<std::int64_t>::max())
      .value_or(0);
}

std::int32_t MapReader::i32(std::string_view key, std::int32_t min) {
  const Obj* o = find(key);
  if (o == nullptr) return 0;
  auto v = read_i64(*o, errors_, FieldPath{path_, key, {}}, min, std::numeric_limits<std::int32_t>::max());
  return static_cast<std::int32_t>(v.value_or(0));
}

bool MapReader::boolean(std::string_view key) {
  const Obj* o = find(key);
  if (o == nullptr) return false;
  if (o->type != msgpack::type::BOOLEAN) {
    errors_.fail(path_of(key), "expected boolean");
    return false;
  }
  return o->via.boolean;
}

const msgpack::object* MapReader::find_optional(std::string_view key) {
  if (obj_ == nullptr || errors_.failed()) return nullptr;
  const auto& m = obj_->via.map;
  for (std::uint32_t i = 0; i < m.size; ++i) {
    const Obj& k = m.ptr[i].key;
    if (k.type != msgpack::type::STR || std::string_view(k.via.str.ptr, k.via.str.size) != key) {
      continue;
    }
    const Obj& v = m.ptr[i].val;
    return v.type == msgpack::type::NIL ? nullptr : &v;
  }
  return nullptr;
}

double MapReader::f64(std::string_view key) {
  const Obj* o = find(key);
  if (o == nullptr) return 0;
  double v = 0;
  if (o->type == msgpack::type::FLOAT64 || o->type == msgpack::type::FLOAT32) {
    v = o->via.f64;
  } else if (o->type == msgpack::type::POSITIVE_INTEGER) {
    v = static_cast<double>(o->via.u64);
  } else if (o->type == msgpack::type::NEGATIVE_INTEGER) {
    v = static_cast<double>(o->via.i64);
  } else {
    errors_.fail(path_of(key), "expected number");
    return 0;
  }
  if (!std::isfinite(v)) {
    errors_.fail(path_of(key), "expected a finite number");
    return 0;
  }
  return v;
}

std::optional<std::int64_t> MapReader::opt_i64(std::string_view key) {
  const Obj* o = find_optional(key);
  if (o == nullptr) return std::nullopt;
  return read_i64(*o, errors_, FieldPath{path_, key, {}}, std::numeric_limits<std::int64_t>::min(),
                  std::numeric_limits<std::int64_t>::max());
}

std::vector<std::uint64_t> MapReader::u64_list(std::string_view key, std::size_t max_entries) {
  std::vector<std::uint64_t> out;
  const auto items = list(key, max_entries);
  out.reserve(items.size());
  for (std::size_t i = 0; i < items.size() && !errors_.failed(); ++i) {
    if (items[i]->type != msgpack::type::POSITIVE_INTEGER) {
      errors_.fail(index_path(path_of(key), i), "expected unsigned integer");
      break;
    }
    out.push_back(items[i]->via.u64);
  }
  return out;
}

std::vector<const msgpack::object*> MapReader::list(std::string_view key, std::size_t max_entries) {
  const Obj* o = find(key);
  if (o == nullptr) return {};
  return read_array(*o, errors_, FieldPath{path_, key, {}}, std::min(max_entries, kMaxListEntries))
      .value_or(std::vector<const Obj*>{});
}

std::vector<std::int32_t> MapReader::i32_list(std::string_view key, std::int32_t min,
                                              std::size_t max_entries) {
  std::vector<std::int32_t> out;
  const auto items = list(key, max_entries);
  out.reserve(items.size());
  for (std::size_t i = 0; i < items.size() && !errors_.failed(); ++i) {
    auto v =
        read_i64(*items[i], errors_, FieldPath{path_, key, i}, min, std::numeric_limits<std::int32_t>::max());
    if (v) out.push_back(static_cast<std::int32_t>(*v));
  }
  return out;
}

std::vector<std::string> MapReader::str_list(std::string_view key, std::size_t max_entries) {
  std::vector<std::string> out;
  const auto items = list(key, max_entries);
  out.reserve(items.size());
  for (std::size_t i = 0; i < items.size() && !errors_.failed(); ++i) {
    auto s = read_str(*items[i], errors_, FieldPath{path_, key, i}, kMaxStringBytes);
    if (s) out.push_back(std::move(*s));
  }
  return out;
}

NodeTopology MapReader::topology(std::string_view key) {
  return Codec<NodeTopology>::read(*this, key, {});
}

std::vector<DependencyClause> MapReader::dependencies(std::string_view key) {
  return Codec<std::vector<DependencyClause>>::read(*this, key, {});
}

std::vector<EnvVar> MapReader::env(std::string_view key) {
  std::vector<EnvVar> out;
  const auto items = list(key);
  out.reserve(items.size());
  for (std::size_t i = 0; i < items.size() && !errors_.failed(); ++i) {
    const std::string p = index_path(path_of(key), i);
    const Obj& pair = *items[i];
    if (pair.type != msgpack::type::ARRAY || pair.via.array.size != 2) {
      errors_.fail(p, "expected [key, value]");
      break;
    }
    auto k = read_str(pair.via.array.ptr[0], errors_, FieldPath{p, "key", {}}, kMaxStringBytes);
    auto v = read_str(pair.via.array.ptr[1], errors_, FieldPath{p, "value", {}}, kMaxStringBytes);
    if (k && v) out.emplace_back(std::move(*k), std::move(*v));
  }
  return out;
}

MapReader MapReader::map(std::string_view key) {
  const Obj* o = find(key);
  // A null object makes every read on the child return defaults; the error is recorded.
  return MapReader(errors_, o, path_of(key));
}

}  // namespace fairway::wire::detail
