// The Transport both command lines call the coordinator through: a ZMTP request client
// that connects on the first request (usage errors never need a coordinator), signing each
// request with MUNGE over tcp://. Not thread-safe: one per command.
#pragma once

#include <optional>
#include <string>

#include "client/api/coordinator_endpoint.h"
#include "shared/base/result.h"
#include "shared/net/zmtp_request_client.h"
#include "shared/wire/messages.h"

namespace fairway::cli {

// On a local ipc:// socket the kernel tells the coordinator who we are; over TCP each
// request carries a MUNGE credential bound to its bytes (munged's socket:
// $FAIRWAY_MUNGE_SOCKET, else libmunge's default).
class CoordinatorTransport {
 public:
  explicit CoordinatorTransport(EndpointSources sources) : sources_(std::move(sources)) {}

  Result<wire::Message> operator()(const wire::Message& request);

 private:
  EndpointSources sources_;
  std::optional<net::ZmtpRequestClient> client_;
  bool sign_ = false;
};

}  // namespace fairway::cli
