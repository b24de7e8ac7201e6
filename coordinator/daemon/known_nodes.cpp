#include "coordinator/daemon/known_nodes.h"

#include "shared/wire/codec.h"

namespace fairway::daemon {

// Hex of the wire encoding of an AgentRegister holding the topology: the wire codec already
// validates topologies, and hex keeps the record plain text in the store's meta table.
std::string known_node_record(const NodeTopology& topology) {
  static constexpr char kHex[] = "0123456789abcdef";
  const std::string frame = wire::encode(wire::AgentRegister{topology.name, "", topology, {}, ""});
  std::string out;
  out.reserve(frame.size() * 2);
  for (unsigned char c : frame) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

Result<NodeTopology> parse_known_node_record(std::string_view record) {
  if (record.size() % 2 != 0) return invalid_argument("known node record: odd length");
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::string frame(record.size() / 2, '\0');
  for (std::size_t i = 0; i < frame.size(); ++i) {
    const int hi = nibble(record[2 * i]), lo = nibble(record[2 * i + 1]);
    if (hi < 0 || lo < 0) return invalid_argument("known node record: not hex");
    frame[i] = static_cast<char>(hi * 16 + lo);
  }
  auto m = wire::decode(frame);
  if (!m) return std::unexpected(m.error().with_context("known node record"));
  const auto* reg = std::get_if<wire::AgentRegister>(&*m);
  if (reg == nullptr) return invalid_argument("known node record: not a node");
  return reg->topology;
}

}  // namespace fairway::daemon
