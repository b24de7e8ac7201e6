#include "coordinator/daemon/known_nodes.h"

#include "coordinator/daemon/store_record.h"
#include "shared/base/hex.h"
#include "shared/base/try.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

// ["FWNODE", version, {"topology": {...}}] (store_record.h), kept as hex so that the meta
// table reads as text in the sqlite3 shell. Until schema 8 it was a wire frame (an
// AgentRegister).
constexpr RecordKind kRecord{"FWNODE", 1, "known node record"};

Result<std::string> bytes_of(std::string_view record) {
  auto bytes = from_hex(record);
  if (!bytes) return make_error(ErrorCode::kIo, "known node record: not hex text");
  return std::move(*bytes);
}

}  // namespace

std::string known_node_record(const NodeTopology& topology) {
  return to_hex(seal_record(kRecord, [&](wire::detail::Packer& pk) {
    pk.pack_map(1);
    wire::detail::put_kv(pk, "topology", topology);
  }));
}

Result<NodeTopology> parse_known_node_record(std::string_view record) {
  FAIRWAY_TRY_ASSIGN(bytes, bytes_of(record));
  NodeTopology t;
  FAIRWAY_TRY(open_record(bytes, kRecord, "node",
                          [&](std::uint32_t, wire::detail::MapReader& r) { t = r.topology("topology"); }));
  return t;
}

Result<std::string> known_node_record_from_wire(std::string_view old_record) {
  FAIRWAY_TRY_ASSIGN(frame, bytes_of(old_record));
  auto m = wire::decode(frame);
  if (!m) return std::unexpected(m.error().with_context("known node record"));
  const auto* reg = std::get_if<wire::AgentRegister>(&*m);
  if (reg == nullptr) return make_error(ErrorCode::kIo, "known node record: not a node");
  return known_node_record(reg->topology);
}

}  // namespace fairway::daemon
