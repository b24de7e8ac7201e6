#include "coordinator/daemon/known_nodes.h"

#include "shared/base/try.h"
#include "shared/wire/codec.h"
#include "shared/wire/msgpack_io.h"

namespace fairway::daemon {
namespace {

// The store's own record of a node, versioned apart from the wire (as stored_request.h's
// for jobs): ["FWNODE", version, {"topology": {...}}], kept as hex so that the meta table
// reads as text in the sqlite3 shell. Until schema 8 it was a wire frame (an AgentRegister).
constexpr std::string_view kMagic = "FWNODE";
constexpr std::uint32_t kVersion = 1;

std::string to_hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

Result<std::string> from_hex(std::string_view text) {
  if (text.size() % 2 != 0) return invalid_argument("known node record: odd length");
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::string bytes(text.size() / 2, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const int hi = nibble(text[2 * i]), lo = nibble(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return invalid_argument("known node record: not hex");
    bytes[i] = static_cast<char>(hi * 16 + lo);
  }
  return bytes;
}

}  // namespace

std::string known_node_record(const NodeTopology& topology) {
  msgpack::sbuffer buf;
  wire::detail::Packer pk(buf);
  pk.pack_array(3);
  wire::detail::put(pk, kMagic);
  pk.pack_uint32(kVersion);
  pk.pack_map(1);
  wire::detail::put_kv(pk, "topology", topology);
  return to_hex(std::string_view(buf.data(), buf.size()));
}

Result<NodeTopology> parse_known_node_record(std::string_view record) {
  FAIRWAY_TRY_ASSIGN(bytes, from_hex(record));
  FAIRWAY_TRY_ASSIGN(handle, wire::detail::parse_bounded(bytes, "known node record"));
  const msgpack::object& root = handle.get();
  const msgpack::object* parts = root.type == msgpack::type::ARRAY && root.via.array.size == 3 ? root.via.array.ptr : nullptr;
  if (parts == nullptr || parts[0].type != msgpack::type::STR ||
      std::string_view(parts[0].via.str.ptr, parts[0].via.str.size) != kMagic) {
    return invalid_argument("known node record: not a record (a wire frame of a store older than schema 8?)");
  }
  if (parts[1].type != msgpack::type::POSITIVE_INTEGER || parts[1].via.u64 == 0) {
    return invalid_argument("known node record: not a record version");
  }
  if (parts[1].via.u64 > kVersion) {
    return make_error(ErrorCode::kFailedPrecondition,
                      "known node record: version " + std::to_string(parts[1].via.u64) + " is newer than version " +
                          std::to_string(kVersion) + " that this coordinator reads (written by a newer Fairway)");
  }
  wire::detail::Errors errors;
  wire::detail::MapReader r(errors, &parts[2], "node");
  NodeTopology t = r.topology("topology");
  if (errors.failed()) {
    std::string message = errors.take().message;
    if (message.starts_with("wire: ")) message.erase(0, 6);
    return invalid_argument("known node record: " + message);
  }
  return t;
}

Result<std::string> known_node_record_from_wire(std::string_view old_record) {
  FAIRWAY_TRY_ASSIGN(frame, from_hex(old_record));
  auto m = wire::decode(frame);
  if (!m) return std::unexpected(m.error().with_context("known node record"));
  const auto* reg = std::get_if<wire::AgentRegister>(&*m);
  if (reg == nullptr) return invalid_argument("known node record: not a node");
  return known_node_record(reg->topology);
}

}  // namespace fairway::daemon
