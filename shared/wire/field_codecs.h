// The wire forms of the values that field lists (field_list.h) name: scalars, ids, times,
// lists, job states and error codes, each checked when read as MapReader checks it.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shared/wire/field_list.h"

namespace fairway::wire::detail {

template <>
struct Codec<std::string> {
  static void put(Packer& pk, const std::string& v) { detail::put(pk, std::string_view(v)); }
  static std::string read(MapReader& r, std::string_view key, const Rule& rule) {
    return r.str(key, rule.max_bytes);
  }
};

template <>
struct Codec<std::int32_t> {
  static void put(Packer& pk, std::int32_t v) { detail::put(pk, v); }
  static std::int32_t read(MapReader& r, std::string_view key, const Rule& rule) {
    return r.i32(key, static_cast<std::int32_t>(rule.min.value_or(std::numeric_limits<std::int32_t>::min())));
  }
};

template <>
struct Codec<std::int64_t> {
  static void put(Packer& pk, std::int64_t v) { detail::put(pk, v); }
  static std::int64_t read(MapReader& r, std::string_view key, const Rule& rule) {
    return r.i64(key, rule.min.value_or(std::numeric_limits<std::int64_t>::min()));
  }
};

template <>
struct Codec<std::uint64_t> {
  static void put(Packer& pk, std::uint64_t v) { detail::put(pk, v); }
  static std::uint64_t read(MapReader& r, std::string_view key, const Rule&) { return r.u64(key); }
};

template <>
struct Codec<bool> {
  static void put(Packer& pk, bool v) { detail::put(pk, v); }
  static bool read(MapReader& r, std::string_view key, const Rule&) { return r.boolean(key); }
};

template <>
struct Codec<double> {
  static void put(Packer& pk, double v) { detail::put(pk, v); }
  static double read(MapReader& r, std::string_view key, const Rule&) { return r.f64(key); }
};

template <>
struct Codec<JobId> {
  static void put(Packer& pk, JobId v) { detail::put(pk, v.value()); }
  static JobId read(MapReader& r, std::string_view key, const Rule&) { return JobId(r.u64(key)); }
  static bool is_set(JobId v) { return v.value() != 0; }
};

// Seconds since the epoch.
template <>
struct Codec<Time> {
  static void put(Packer& pk, Time v) { detail::put(pk, v.seconds()); }
  static Time read(MapReader& r, std::string_view key, const Rule& rule) {
    return Time::from_seconds(Codec<std::int64_t>::read(r, key, rule));
  }
};

// Seconds.
template <>
struct Codec<Duration> {
  static void put(Packer& pk, Duration v) { detail::put(pk, v.count()); }
  static Duration read(MapReader& r, std::string_view key, const Rule& rule) {
    return Duration::seconds(Codec<std::int64_t>::read(r, key, rule));
  }
};

// A uid or gid: a 32-bit id (the all-ones "no id" is refused), sent as a signed integer.
template <>
struct Codec<std::optional<std::uint32_t>> {
  static void put(Packer& pk, const std::optional<std::uint32_t>& v) {
    detail::put(pk, static_cast<std::int64_t>(*v));
  }
  static std::optional<std::uint32_t> read(MapReader& r, std::string_view key, const Rule&) {
    const std::int64_t v = r.i64(key);
    if (r.failed()) return std::nullopt;
    if (v < 0 || v > 0xFFFFFFFE) {
      r.errors().fail(r.path_of(key), "not a valid id: " + std::to_string(v));
      return std::nullopt;
    }
    return static_cast<std::uint32_t>(v);
  }
};

// Elements at least rule.min, 0 unless given.
template <>
struct Codec<std::vector<std::int32_t>> {
  static void put(Packer& pk, const std::vector<std::int32_t>& v) { detail::put(pk, v); }
  static std::vector<std::int32_t> read(MapReader& r, std::string_view key, const Rule& rule) {
    return r.i32_list(key, static_cast<std::int32_t>(rule.min.value_or(0)), rule.max_entries);
  }
};

template <>
struct Codec<std::vector<std::string>> {
  static void put(Packer& pk, const std::vector<std::string>& v) { detail::put(pk, v); }
  static std::vector<std::string> read(MapReader& r, std::string_view key, const Rule& rule) {
    return r.str_list(key, rule.max_entries);
  }
};

template <>
struct Codec<std::vector<EnvVar>> {
  static void put(Packer& pk, const std::vector<EnvVar>& v) { detail::put(pk, v); }
  static std::vector<EnvVar> read(MapReader& r, std::string_view key, const Rule&) { return r.env(key); }
};

template <>
struct Codec<std::vector<JobId>> {
  static void put(Packer& pk, const std::vector<JobId>& v) { detail::put(pk, v); }
  static std::vector<JobId> read(MapReader& r, std::string_view key, const Rule& rule) {
    std::vector<JobId> out;
    for (std::uint64_t id : r.u64_list(key, rule.max_entries)) out.emplace_back(id);
    return out;
  }
};

// By name; an unknown name is an error naming it.
template <>
struct Codec<JobState> {
  static void put(Packer& pk, JobState v) { detail::put(pk, to_string(v)); }
  static JobState read(MapReader& r, std::string_view key, const Rule&) {
    const std::string name = r.str(key);
    if (r.failed()) return JobState::kPending;
    if (auto s = job_state_from_string(name)) return *s;
    r.errors().fail(r.path_of(key), "unknown job state \"" + name.substr(0, 64) + "\"");
    return JobState::kPending;
  }
};

template <>
struct Codec<std::vector<JobState>> {
  static void put(Packer& pk, const std::vector<JobState>& v) {
    pk.pack_array(size32(v.size()));
    for (JobState s : v) Codec<JobState>::put(pk, s);
  }
  static std::vector<JobState> read(MapReader& r, std::string_view key, const Rule& rule) {
    std::vector<JobState> out;
    const std::vector<std::string> names = r.str_list(key, rule.max_entries);
    for (std::size_t i = 0; i < names.size() && !r.failed(); ++i) {
      if (auto s = job_state_from_string(names[i])) {
        out.push_back(*s);
      } else {
        r.errors().fail(item_path(r, key, i), "unknown job state \"" + names[i].substr(0, 64) + "\"");
      }
    }
    return out;
  }
};

// What an enum's error names it by.
inline std::string_view enum_noun(ErrorCode) {
  return "error code";
}
inline std::string_view enum_noun(DependencyType) {
  return "dependency type";
}
inline std::string_view enum_noun(JobAction) {
  return "job action";
}
inline std::string_view enum_noun(NodeAction) {
  return "node action";
}
inline std::string_view enum_noun(GpuAskedPer) {
  return "GPU request shape";
}

// An enum sent as its number, `lo` to `hi`; any other number is an error naming it
// ("unknown job action 9"). Below rule.min it is out of range, as for any integer.
template <class E, E lo, E hi>
struct EnumNumber {
  static void put(Packer& pk, E v) { detail::put(pk, static_cast<std::int32_t>(v)); }
  static E read(MapReader& r, std::string_view key, const Rule& rule) {
    const std::int32_t v = Codec<std::int32_t>::read(r, key, rule);
    if (!r.failed() && (v < static_cast<std::int32_t>(lo) || v > static_cast<std::int32_t>(hi))) {
      r.errors().fail(r.path_of(key), "unknown " + std::string(enum_noun(E{})) + " " + std::to_string(v));
    }
    return static_cast<E>(v);
  }
};

template <>
struct Codec<ErrorCode> : EnumNumber<ErrorCode, ErrorCode::kInvalidArgument, ErrorCode::kUnavailable> {};
template <>
struct Codec<DependencyType>
    : EnumNumber<DependencyType, DependencyType::kAfter, DependencyType::kSingleton> {};
template <>
struct Codec<JobAction> : EnumNumber<JobAction, JobAction::kCancel, JobAction::kEndAllocation> {};
template <>
struct Codec<NodeAction> : EnumNumber<NodeAction, NodeAction::kDrain, NodeAction::kResume> {};
template <>
struct Codec<GpuAskedPer> : EnumNumber<GpuAskedPer, GpuAskedPer::kNone, GpuAskedPer::kTask> {};

// ---- the model's structs that messages (and the store's records) carry

template <class V, FieldsOf<DependencyClause> M>
void fields(V& v, M& c) {
  v.field("type", c.type, kCount);
  v.field("jobs", c.jobs);
}

template <class V, FieldsOf<SocketTopology> M>
void fields(V& v, M& s) {
  v.field("cores", s.cores, kCount);
  v.field("threads_per_core", s.threads_per_core, {.min = 1});
}

template <class V, FieldsOf<GpuDevice> M>
void fields(V& v, M& g) {
  v.field("type", g.type);
  v.field("socket", g.socket, kCount);
}

// The island is not sent: the coordinator's config names islands, not the agent.
template <class V, FieldsOf<NodeTopology> M>
void fields(V& v, M& t) {
  v.field("name", t.name);
  v.field("sockets", t.sockets);
  v.field("gpus", t.gpus);
  v.field("memory_mb", t.memory_mb, kCount);
  v.field("features", t.features);
}

}  // namespace fairway::wire::detail
