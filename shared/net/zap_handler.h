// The ZeroMQ authentication handler (ZAP, RFC 27) of a process: libzmq asks it, during
// each handshake, whether to admit a peer and under which user id. Bound at the fixed
// inproc://zeromq.zap.01 of its context, polled and served by the event-loop thread that
// owns it (each socket owned by one thread). Not thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "shared/base/result.h"
#include "shared/net/message_socket.h"

namespace fairway::net {

struct ZapRequest {
  std::string domain;      // the socket's ZAP domain ("" for sockets that set none)
  std::string address;     // the peer's address
  std::string mechanism;   // "NULL", "PLAIN" or "CURVE"
  std::string client_key;  // CURVE: the client's public key, Z85; else empty
};

class ZapHandler {
 public:
  // The user id to admit the peer under (it reaches every message as "User-Id"), or
  // nullopt to refuse it.
  using Decide = std::function<std::optional<std::string>(const ZapRequest&)>;

  // Must be bound before any socket that authenticates connects or accepts.
  static Result<ZapHandler> bind(NetContext& ctx, Decide decide);
  ZapHandler(ZapHandler&&) noexcept;
  ZapHandler& operator=(ZapHandler&&) noexcept;
  ~ZapHandler();

  // Answers every request waiting; never blocks. Malformed requests are answered 400.
  void serve();
  void* handle() const;  // for the Poller

 private:
  struct Impl;
  explicit ZapHandler(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fairway::net
