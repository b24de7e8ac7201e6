// One list of a message's fields drives the size of its map, its writing and its reading,
// so that a field cannot be sent and not read back, nor a hand-counted map size go wrong.
#pragma once

// A message's list is a function template found by argument-dependent lookup:
//
//   template <class V, FieldsOf<Heartbeat> M>
//   void fields(V& v, M& m) {
//     v.field("node", m.node);
//     v.field("seq", m.seq);
//   }
//
// The order of the list is the order of the keys on the wire. write_fields() packs a map of
// what the list says to send; read_fields() fills a default-constructed struct from an
// untrusted map, then calls check_fields(MapReader&, T&) where one is declared, for the
// checks that span fields. Unknown keys are skipped; the first error is kept (Errors).

#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "shared/wire/msgpack_io.h"
#include "shared/wire/request_limits.h"

namespace fairway::wire::detail {

// The list of a `T` is written for `M`, which is `T` or `const T`.
template <class M, class T>
concept FieldsOf = std::same_as<std::remove_const_t<M>, T>;

enum class Presence : std::uint8_t {
  kRequired,   // always sent; missing is an error
  kDefaulted,  // always sent; absent or nil (an older peer) keeps the struct's default
  kWhenSet,    // sent only when not the default (set, non-empty, non-zero, true)
};

// How a field is sent and checked. A std::optional field is always sent only when set.
struct Rule {
  Presence presence = Presence::kRequired;
  std::optional<std::int64_t> min{};  // integers and integer lists: below it is out of range
  std::size_t max_bytes = kMaxStringBytes;
  std::size_t max_entries = kMaxListEntries;
};
inline constexpr Rule kDefaulted{.presence = Presence::kDefaulted};
inline constexpr Rule kWhenSet{.presence = Presence::kWhenSet};
inline constexpr Rule kCount{.min = 0};

template <class T>
inline constexpr bool kIsOptional = false;
template <class T>
inline constexpr bool kIsOptional<std::optional<T>> = true;

// A value's form on the wire: put(Packer&, const T&) and read(MapReader&, key, Rule) -> T,
// which reads a present key (a missing one is recorded as missing). This primary template
// is a struct with a list of its own, sent as a nested map; the rest are in field_codecs.h.
template <class T>
struct Codec;

inline std::uint32_t size32(std::size_t n) {
  return static_cast<std::uint32_t>(n);
}

// "Type.key[i]": where an array element sits, for error messages.
inline std::string item_path(const MapReader& r, std::string_view key, std::size_t i) {
  return r.path_of(key) + "[" + std::to_string(i) + "]";
}

// Reads every element of the array at `key` as a map with `read_one`.
template <typename T, typename ReadOne>
std::vector<T> read_maps(MapReader& r, std::string_view key, ReadOne read_one, std::size_t max_entries) {
  std::vector<T> out;
  const auto items = r.list(key, max_entries);
  out.reserve(items.size());
  for (std::size_t i = 0; i < items.size() && !r.failed(); ++i) {
    MapReader item(r.errors(), items[i], item_path(r, key, i));
    out.push_back(read_one(item));
  }
  return out;
}

// ---- the visitors

// Writes what a list sends into `pk`, or, without one, only counts it (the map's size).
class FieldWriter {
 public:
  explicit FieldWriter(Packer* pk) : pk_(pk) {}
  template <class T, class C = Codec<std::remove_const_t<T>>>
  void field(std::string_view key, const T& value, const Rule& rule = {}, C = {});
  template <class F>
  void when(bool cond, F&& inner) {
    if (cond) inner(*this);
  }
  template <class F>
  void together(bool cond, F&& inner) {
    if (cond) inner(*this);
  }
  std::uint32_t count() const { return n_; }

 private:
  Packer* pk_;
  std::uint32_t n_ = 0;
};

// Whether any key of a group is present (and not nil).
class KeyProbe {
 public:
  explicit KeyProbe(MapReader& r) : r_(r) {}
  template <class T, class C = Codec<T>>
  void field(std::string_view key, T&, const Rule& = {}, C = {}) {
    any_ = any_ || r_.has(key);
  }
  template <class F>
  void when(bool, F&& inner) {
    inner(*this);
  }
  template <class F>
  void together(bool, F&& inner) {
    inner(*this);
  }
  bool any() const { return any_; }

 private:
  MapReader& r_;
  bool any_ = false;
};

class FieldReader {
 public:
  explicit FieldReader(MapReader& r) : r_(r) {}
  template <class T, class C = Codec<T>>
  void field(std::string_view key, T& value, const Rule& rule = {}, C = {}) {
    if (r_.failed()) return;
    const bool required = rule.presence == Presence::kRequired && !kIsOptional<T>;
    if (required || r_.has(key)) value = C::read(r_, key, rule);
  }
  // Read when `cond` holds of the fields read before it (as it did when they were sent).
  template <class F>
  void when(bool cond, F&& inner) {
    if (cond) inner(*this);
  }
  // Sent together: any one of the group's keys makes all of them required.
  template <class F>
  void together(bool, F&& inner) {
    KeyProbe probe(r_);
    inner(probe);
    if (probe.any()) inner(*this);
  }

 private:
  MapReader& r_;
};

// ---- what a list drives

template <class T, class C>
bool is_set(const T& v, C) {
  if constexpr (requires { C::is_set(v); }) {
    return C::is_set(v);
  } else if constexpr (kIsOptional<T>) {
    return v.has_value();
  } else if constexpr (requires { v.empty(); }) {
    return !v.empty();
  } else if constexpr (requires { v == T{}; }) {
    return !(v == T{});
  } else {
    return true;  // a struct without a default to compare with: always sent
  }
}

template <class T, class C>
bool is_sent(const T& v, const Rule& rule, C codec) {
  if (kIsOptional<T> || rule.presence == Presence::kWhenSet) return is_set(v, codec);
  return true;
}

template <class T, class C>
void FieldWriter::field(std::string_view key, const T& value, const Rule& rule, C codec) {
  if (!is_sent(value, rule, codec)) return;
  ++n_;
  if (pk_ == nullptr) return;
  put(*pk_, key);
  C::put(*pk_, value);
}

// `m` as a map of the keys its list sends, sized from the same list.
template <class T>
void write_fields(Packer& pk, const T& m) {
  FieldWriter counter(nullptr);
  fields(counter, m);
  pk.pack_map(counter.count());
  FieldWriter writer(&pk);
  fields(writer, m);
}

// A `T` from the map `r` (errors recorded in r's Errors; the caller checks once).
template <class T>
T read_fields(MapReader& r) {
  T m{};
  FieldReader reader(r);
  fields(reader, m);
  if constexpr (requires { check_fields(r, m); }) {
    if (!r.failed()) check_fields(r, m);
  }
  return m;
}

template <class T>
struct Codec {
  static void put(Packer& pk, const T& v) { write_fields(pk, v); }
  static T read(MapReader& r, std::string_view key, const Rule&) {
    MapReader child = r.map(key);
    return read_fields<T>(child);
  }
};

// A list of structs, each a map of its own list.
template <class T>
struct Codec<std::vector<T>> {
  static void put(Packer& pk, const std::vector<T>& v) {
    pk.pack_array(size32(v.size()));
    for (const T& item : v) write_fields(pk, item);
  }
  static std::vector<T> read(MapReader& r, std::string_view key, const Rule& rule) {
    return read_maps<T>(r, key, read_fields<T>, rule.max_entries);
  }
};

template <class T>
struct Codec<std::optional<T>> {
  static void put(Packer& pk, const std::optional<T>& v) { Codec<T>::put(pk, *v); }
  static std::optional<T> read(MapReader& r, std::string_view key, const Rule& rule) {
    return Codec<T>::read(r, key, rule);
  }
};

}  // namespace fairway::wire::detail

#include "shared/wire/field_codecs.h"
