// Who is at the other end of a local (ipc://) connection, as the kernel vouches for it
// (SO_PEERCRED, which libzmq appends to an ipc peer's address). Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace fairway::net {

struct PeerCredentials {
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::int64_t pid = 0;
  bool operator==(const PeerCredentials&) const = default;
};

// libzmq's ipc peer address "HOST:UID:GID:PID"; nullopt for anything else (a TCP peer's
// "127.0.0.1", a malformed or out-of-range field).
std::optional<PeerCredentials> parse_ipc_peer_address(std::string_view address);

}  // namespace fairway::net
