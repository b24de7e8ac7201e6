// The coordinator's client endpoint as its event loop sees it: on ipc:// the loop's own
// ZMTP router (the kernel names each caller, no I/O thread in between), on tcp:// libzmq's
// ROUTER (MUNGE names callers there). Not thread-safe: the loop thread owns it.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "shared/base/result.h"
#include "shared/net/message_socket.h"
#include "shared/net/poller.h"
#include "shared/net/zmtp_unix_router.h"

namespace fairway::daemon {

class ClientChannel {
 public:
  static Result<ClientChannel> bind(net::NetContext& ctx, const std::string& endpoint);

  // Registers with the loop's poller; returns the index of its readiness.
  std::size_t add_to(net::Poller& poller) const;
  // Does the socket work ready now (accepts, reads, writes); nothing to do on tcp://.
  void serve(std::chrono::steady_clock::time_point now);
  std::optional<net::Inbound> receive();
  // Messages already read and not yet taken: the loop must not sleep while there are.
  bool has_pending() const;
  Status send(std::string_view peer, std::string_view frame);

 private:
  ClientChannel() = default;
  std::optional<net::ZmtpUnixRouter> local_;
  std::optional<net::MessageSocket> remote_;
};

}  // namespace fairway::daemon
