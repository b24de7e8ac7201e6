#include "coordinator/daemon/stored_request.h"

#include <limits>
#include <type_traits>

#include "coordinator/daemon/store_record.h"
#include "shared/base/try.h"
#include "shared/model/job_array.h"
#include "shared/wire/codec.h"
#include "shared/wire/job_fields.h"
#include "shared/wire/msgpack_io.h"

namespace fairway::daemon {
namespace {

using wire::detail::MapReader;
using wire::detail::Packer;

struct Bounds {
  std::int64_t min = std::numeric_limits<std::int64_t>::min();
  std::int64_t max = std::numeric_limits<std::int64_t>::max();
};
constexpr Bounds kAny{};
constexpr Bounds kCount{0, std::numeric_limits<std::int64_t>::max()};

// A wire group's field, read into the store's bounds: its rule's minimum, or its codec's
// range (integers only; the other types check their own).
Bounds bounds_of(const wire::detail::Rule& rule) {
  return rule.min ? Bounds{*rule.min, kAny.max} : kAny;
}
template <class T>
Bounds bounds_of(const wire::detail::Rule&, wire::detail::NonNegative<T>) {
  return kCount;
}
Bounds bounds_of(const wire::detail::Rule&, wire::detail::SignalNumber) {
  return Bounds{0, 64};
}

// Every field of the record, in the one list that both directions walk, so that a field
// cannot be written and not read back. Bounds are checked when reading: the file may be
// damaged, and the core trusts what recovery gives it.
//
// Runs of fields that the wire's SubmitRequest lists in the same order are its groups
// (shared/wire/job_fields.h), walked with this file's visitors: a field added to one of them
// is stored too. The rest stays listed here because the formats differ where it is: the
// record's key order is frozen (golden files, tests/fixtures/store/) and differs from the
// wire's; every key is always written (nil when unset), where the wire leaves out fields
// that are not set (array, array task, begin, GPUs per something); the record has its own
// version (2 added the GPU fields), the wire defaults absent fields instead; the record keeps
// allow_multi_island, which only the simulator sets and the wire does not carry, and not
// test_only, which belongs to one request. StoredRequest.TheStoreKeepsEveryFieldTheWireSends
// checks that the two lists name the same fields.
template <typename Request, typename Visitor>
void visit_fields(Request& r, Visitor& v) {
  auto& s = r.spec;
  auto& res = s.resources;
  v.field("client_token", r.client_token);
  v.field("name", s.name);
  v.field("user", s.user);
  v.field("uid", s.uid);
  v.field("gid", s.gid);
  wire::detail::request_fields(v, s);
  v.field("mem_per_node_mb", res.memory_per_node_mb, kCount);
  v.field("mem_per_cpu_mb", res.memory_per_cpu_mb, kCount);
  wire::detail::fields(v, s.tasks);
  v.field("time_limit", s.time_limit);
  wire::detail::flag_fields(v, s);
  wire::detail::dependency_fields(v, s);
  v.field("begin", s.begin);
  v.field("nice", s.nice, kAny);
  wire::detail::node_and_notice_fields(v, s);
  v.field("array", s.array);
  v.field("array_job", s.array_job);
  v.field("array_task", s.array_task, kCount);
  v.field("allow_multi_island", s.allow_multi_island);
  wire::detail::fields(v, r.program);
  // Version 2: a version 1 record has none of these (the job asked for GPUs as a total).
  v.since(2, [&] { wire::detail::gpu_ask_fields(v, s.gpu_ask); });
}

struct FieldCounter {
  std::uint32_t n = 0;
  template <typename T>
  void field(std::string_view, const T&, Bounds = {}) {
    ++n;
  }
  template <typename T, typename... Codec>
  void field(std::string_view, const T&, const wire::detail::Rule&, const Codec&...) {
    ++n;
  }
  // Writing is always of the newest version: every field counts.
  template <typename F>
  void since(std::uint32_t, F&& fields) {
    fields();
  }
};

struct FieldWriter {
  Packer& pk;

  template <typename T>
  void field(std::string_view key, const T& value, Bounds = {}) {
    wire::detail::put(pk, key);
    put(value);
  }
  // A wire group's field: written as the store writes its type, whatever the wire's rule.
  template <typename T, typename... Codec>
  void field(std::string_view key, const T& value, const wire::detail::Rule&, const Codec&...) {
    field(key, value);
  }
  void put(const std::string& v) { wire::detail::put(pk, std::string_view(v)); }
  template <typename T>
  void put(const T& v) {
    wire::detail::put(pk, v);
  }
  void put(std::uint8_t v) { wire::detail::put(pk, static_cast<std::int32_t>(v)); }
  void put(Duration v) { wire::detail::put(pk, v.count()); }
  void put(JobId v) { wire::detail::put(pk, v.value()); }
  void put(const ArraySpec& v) { put(v.empty() ? std::string() : format_array_spec(v)); }
  void put(Time v) { wire::detail::put(pk, v.seconds()); }
  void put(std::uint32_t v) { wire::detail::put(pk, static_cast<std::int64_t>(v)); }
  void put(GpuAskedPer v) { wire::detail::put(pk, static_cast<std::int32_t>(v)); }
  template <typename F>
  void since(std::uint32_t, F&& fields) {
    fields();
  }
  // Absent: nil, the key still written (every field of a version is present).
  template <typename T>
  void put(const std::optional<T>& v) {
    if (v) {
      put(*v);
    } else {
      pk.pack_nil();
    }
  }
};

struct FieldReader {
  MapReader& r;
  std::uint32_t version;

  // Fields a record of an older version does not have keep their defaults.
  template <typename F>
  void since(std::uint32_t first, F&& fields) {
    if (version >= first) fields();
  }
  // A wire group's field: read as the store reads its type, in the bounds the wire's rule
  // or codec gives an integer.
  template <typename T, typename... Codec>
  void field(std::string_view key, T& v, const wire::detail::Rule& rule, const Codec&... codec) {
    if constexpr (std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>) {
      field(key, v, bounds_of(rule, codec...));
    } else {
      field(key, v);
    }
  }
  void field(std::string_view key, GpuAskedPer& v) {
    const std::int32_t per = r.i32(key);
    check(key, per, Bounds{0, 3});
    v = static_cast<GpuAskedPer>(per);
  }
  void fail(std::string_view key, const std::string& what) { r.errors().fail(r.path_of(key), what); }
  void check(std::string_view key, std::int64_t v, Bounds b) {
    if (!r.failed() && (v < b.min || v > b.max)) fail(key, "out of range: " + std::to_string(v));
  }
  void field(std::string_view key, std::string& v) { v = r.str(key, wire::kMaxFrameBytes); }
  void field(std::string_view key, bool& v) { v = r.boolean(key); }
  void field(std::string_view key, std::int32_t& v, Bounds b) {
    v = r.i32(key);
    check(key, v, b);
  }
  void field(std::string_view key, std::int64_t& v, Bounds b) {
    v = r.i64(key);
    check(key, v, b);
  }
  void field(std::string_view key, std::uint8_t& v) {
    const std::int32_t bits = r.i32(key);
    check(key, bits, Bounds{0, 255});
    v = static_cast<std::uint8_t>(bits & 255);
  }
  void field(std::string_view key, Duration& v) {
    const std::int64_t s = r.i64(key);
    check(key, s, kCount);
    v = Duration::seconds(s);
  }
  void field(std::string_view key, JobId& v) { v = JobId(r.u64(key)); }
  void field(std::string_view key, std::optional<Time>& v) {
    if (const auto s = r.opt_i64(key)) v = Time::from_seconds(*s);
  }
  void field(std::string_view key, std::optional<std::uint32_t>& v) {
    const auto id = r.opt_i64(key);
    if (!id) return;
    check(key, *id, Bounds{0, 0xFFFFFFFE});
    v = static_cast<std::uint32_t>(*id);
  }
  void field(std::string_view key, std::vector<std::string>& v) { v = r.str_list(key); }
  void field(std::string_view key, std::vector<wire::EnvVar>& v) { v = r.env(key); }
  void field(std::string_view key, ArraySpec& v) {
    const std::string text = r.str(key);
    if (r.failed() || text.empty()) return;
    if (auto a = parse_array_spec(text, kMaxArrayIndex)) {
      v = std::move(*a);
    } else {
      fail(key, a.error().message);
    }
  }
  void field(std::string_view key, std::vector<DependencyClause>& v) { v = r.dependencies(key); }
};

constexpr RecordKind kRecord{kStoredRequestMagic, kStoredRequestVersion, "stored request"};

}  // namespace

std::string encode_stored_request(const wire::SubmitRequest& request) {
  return seal_record(kRecord, [&](Packer& pk) {
    FieldCounter counter;
    visit_fields(request, counter);
    pk.pack_map(counter.n);
    FieldWriter writer{pk};
    visit_fields(request, writer);
  });
}

Result<wire::SubmitRequest> decode_stored_request(std::string_view record) {
  wire::SubmitRequest out;
  FAIRWAY_TRY(open_record(record, kRecord, "request", [&](std::uint32_t version, MapReader& map) {
    FieldReader reader{map, version};
    visit_fields(out, reader);
  }));
  return out;
}

Result<std::string> stored_request_from_wire_frame(std::string_view frame) {
  auto decoded = wire::decode(frame);
  if (!decoded)
    return make_error(ErrorCode::kIo,
                      "stored request: a wire frame that cannot be read: " + decoded.error().message);
  const auto* submit = std::get_if<wire::SubmitRequest>(&*decoded);
  if (submit == nullptr)
    return make_error(ErrorCode::kIo, "stored request: a wire frame that is not a submit request");
  return encode_stored_request(*submit);
}

}  // namespace fairway::daemon
