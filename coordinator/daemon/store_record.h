// The envelope of the job store's own records (a job's request, a remembered node):
// ["MAGIC", version, {payload}], versioned apart from the wire protocol. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "shared/base/result.h"
#include "shared/wire/msgpack_io.h"

namespace fairway::daemon {

struct RecordKind {
  std::string_view magic;  // what a record of this kind starts with, e.g. "FWJOB"
  std::uint32_t version;   // the version this code writes, and the newest it reads
  std::string_view name;   // for errors: "stored request"
};

// A record of `kind`; `write_payload` packs exactly one map, its payload.
std::string seal_record(const RecordKind& kind,
                        const std::function<void(wire::detail::Packer&)>& write_payload);

// Reads a record of `kind`: `read_payload` gets its version (1 to kind.version) and its
// payload map (named `payload_path` in errors), and records what it finds wrong in the
// reader. kIo "<name>: ..." when the bytes are not such a record or the payload is
// damaged; kFailedPrecondition naming a version newer than kind.version.
Status open_record(std::string_view bytes, const RecordKind& kind, std::string_view payload_path,
                   const std::function<void(std::uint32_t, wire::detail::MapReader&)>& read_payload);

}  // namespace fairway::daemon
