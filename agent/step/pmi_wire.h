// PMI's two wire formats, as MPI libraries speak them over the socket PMI_FD names: PMI-1
// (MPICH's simple PMI: a line of space-separated key=value) and PMI-2 (a 6-character length,
// then key=value; pairs, ";;" standing for a ';' in a value). Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shared/base/result.h"

namespace fairway::agent {

// One command's longest text: PMI-1 lines are bounded by the value length we announce
// (vallen_max) and PMI-2's length field has six digits.
inline constexpr std::size_t kMaxPmiCommandBytes = 64 * 1024;
// The longest key and value a task may put (announced as keylen_max and vallen_max).
inline constexpr std::size_t kMaxPmiKeyBytes = 256;
inline constexpr std::size_t kMaxPmiValueBytes = 1024;

enum class PmiWire { kV1, kV2 };

struct PmiCommand {
  std::string cmd;  // "init", "put", "kvs-fence"...; a PMI-1 spawn block is "spawn"
  std::vector<std::pair<std::string, std::string>> args;
  // The value of `key`, if given.
  std::optional<std::string> get(std::string_view key) const;
  bool operator==(const PmiCommand&) const = default;
};

// The first whole command at the front of `buffer`, removed from it; nullopt while more
// bytes are needed. An error (then the connection is dropped) names what is wrong: no
// cmd=, a bad length field, a command longer than kMaxPmiCommandBytes.
Result<std::optional<PmiCommand>> take_pmi_command(std::string& buffer, PmiWire wire);

// A reply: "cmd=NAME k=v ...\n" (PMI-1) or the length-prefixed "cmd=NAME;k=v;..." (PMI-2).
std::string format_pmi_reply(PmiWire wire, std::string_view cmd,
                             const std::vector<std::pair<std::string, std::string>>& args);

// MPICH's PMI_process_mapping for tasks placed on nodes by rank ("(vector,(0,2,2))": from
// node 0, 2 nodes of 2 ranks each): how its ranks find which of them share a node.
std::string pmi_process_mapping(const std::vector<std::int32_t>& node_of_rank);

}  // namespace fairway::agent
