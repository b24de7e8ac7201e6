// Helpers that write fields into msgpack and read them back from untrusted msgpack objects:
// the wire codec's, and the job store's for its own records. Not thread-safe per object.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shared/base/result.h"
#include "shared/wire/envelope.h"
#include "shared/wire/messages.h"
#include "shared/wire/msgpack_include.h"

namespace fairway::wire::detail {

using Packer = msgpack::packer<msgpack::sbuffer>;

void put(Packer& pk, std::string_view s);
void put(Packer& pk, std::int64_t v);
void put(Packer& pk, std::uint64_t v);
void put(Packer& pk, std::int32_t v);
void put(Packer& pk, bool v);
void put(Packer& pk, double v);
void put(Packer& pk, const std::vector<std::int32_t>& v);
void put(Packer& pk, const std::vector<std::string>& v);
void put(Packer& pk, const std::vector<EnvVar>& v);
void put(Packer& pk, const std::vector<JobId>& v);
// --dependency clauses: an array of {type, jobs} maps.
void put(Packer& pk, const std::vector<DependencyClause>& v);
// A node's topology: {name, sockets: [{cores, threads_per_core}], gpus: [{type, socket}],
// memory_mb, features}.
void put(Packer& pk, const NodeTopology& t);

template <typename T>
void put_kv(Packer& pk, std::string_view key, const T& value) {
  put(pk, key);
  put(pk, value);
}

// A frame holding `type` whose payload the caller has already packed into `payload`.
std::string seal(MessageType type, const msgpack::sbuffer& payload);

// A checked frame: `handle` owns the parsed tree that `payload` points into.
struct OpenFrame {
  msgpack::object_handle handle;
  MessageType type{};
  const msgpack::object* payload = nullptr;
};
// Parses untrusted msgpack within the frame bounds of envelope.h (size, entries, values,
// depth), all checked before msgpack allocates. Never throws; errors start with `what`.
Result<msgpack::object_handle> parse_bounded(std::string_view bytes, std::string_view what);
// Never throws: size, structure, magic, version and type are checked here.
Result<OpenFrame> open_frame(std::string_view frame);

// Keeps the first decoding error of a frame so readers can return defaults after it and
// the caller checks once at the end, instead of testing every field read.
class Errors {
 public:
  // Set: every string read has its control characters escaped (decode_for_terminal).
  bool escape_control = false;
  bool failed() const { return error_.has_value(); }
  void fail(const std::string& path, std::string_view what);
  Error take() const;

 private:
  std::optional<Error> error_;
};

// Typed access to one msgpack map with string keys. `path` names it in error messages
// ("Heartbeat", "AgentRegister.running[2]"). Unknown keys are ignored; the first of
// duplicated keys wins.
class MapReader {
 public:
  MapReader(Errors& errors, const msgpack::object* obj, std::string path);

  bool failed() const { return errors_.failed(); }
  std::string path_of(std::string_view key) const;

  std::string str(std::string_view key, std::size_t max_bytes = kMaxStringBytes);
  std::uint64_t u64(std::string_view key);
  std::int64_t i64(std::string_view key, std::int64_t min = std::numeric_limits<std::int64_t>::min());
  std::int32_t i32(std::string_view key, std::int32_t min = std::numeric_limits<std::int32_t>::min());
  bool boolean(std::string_view key);
  // A finite float; integers are accepted too, as a writer in another language may send them.
  double f64(std::string_view key);
  // Absent or nil: nullopt. (The wire's optional fields are read by field lists,
  // field_list.h, which ask has() first.)
  std::optional<std::int64_t> opt_i64(std::string_view key);
  // Lists: more than `max_entries` (never more than kMaxListEntries) is an error naming
  // the field and the count, found from the array's header before any entry is read.
  std::vector<std::uint64_t> u64_list(std::string_view key, std::size_t max_entries = kMaxListEntries);
  std::vector<std::int32_t> i32_list(std::string_view key, std::int32_t min = 0,
                                     std::size_t max_entries = kMaxListEntries);
  std::vector<std::string> str_list(std::string_view key, std::size_t max_entries = kMaxListEntries);
  std::vector<EnvVar> env(std::string_view key);
  // put()'s dependency clauses; a type no DependencyType has is an error naming it.
  std::vector<DependencyClause> dependencies(std::string_view key);
  // put()'s topology, as the map at `key`.
  NodeTopology topology(std::string_view key);
  // The elements of an array, or none after an error; the elements are not checked.
  std::vector<const msgpack::object*> list(std::string_view key, std::size_t max_entries = kMaxListEntries);
  MapReader map(std::string_view key);
  Errors& errors() { return errors_; }
  // Present and not nil: for keys added after the first release.
  bool has(std::string_view key) { return find_optional(key) != nullptr; }

 private:
  const msgpack::object* find(std::string_view key);           // records "missing" when absent
  const msgpack::object* find_optional(std::string_view key);  // absent or nil: nullptr

  Errors& errors_;
  const msgpack::object* obj_;
  std::string path_;
};

}  // namespace fairway::wire::detail
