// A ZeroMQ socket carrying Fairway frames: ROUTER (daemons serving many peers, each frame
// tagged with the peer's identity) or DEALER (an agent's link to its coordinator).
// Not thread-safe: each socket is owned and used by exactly one thread (xeus-zmq's rule).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "shared/base/result.h"
#include "shared/net/peer_credentials.h"

namespace fairway::net {

// One ZeroMQ context per process; sockets keep it alive.
class NetContext {
 public:
  friend struct NetContextAccess;
  NetContext();
  ~NetContext();
  NetContext(const NetContext&) = delete;
  NetContext& operator=(const NetContext&) = delete;

 private:
  friend class MessageSocket;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

struct Inbound {
  std::string peer;   // the sender's identity (ROUTER); empty on a DEALER
  std::string frame;  // one complete, not yet decoded Fairway frame
  // The sending process's uid/gid as the kernel reports them: set on ipc:// ROUTERs only.
  std::optional<PeerCredentials> credentials;
  // The user id the ZAP handler admitted the sender under (CURVE: the key's owner); empty
  // on a socket without authentication.
  std::string authenticated_id;
};

// A ROUTER that admits only CURVE clients its ZAP handler accepts (bind a ZapHandler in
// the same context first).
struct CurveServer {
  std::string secret_key_z85;
  std::string zap_domain;
};

// A DEALER that talks only to the server holding `server_public_z85`'s secret.
struct CurveClient {
  std::string server_public_z85;
  std::string public_key_z85;
  std::string secret_key_z85;
};

class MessageSocket {
 public:
  // Binds a ROUTER. For ipc:// endpoints the socket file's directory must exist.
  static Result<MessageSocket> bind_router(NetContext& ctx, const std::string& endpoint,
                                           const CurveServer* curve = nullptr);
  // Connects a DEALER with a fixed identity, kept across ZeroMQ's own reconnects, so the
  // peer can address this socket's connection (an agent's is random: connection_id.h).
  // A ROUTER ignores a second connection whose identity is still in use; heartbeats (on
  // every socket) drop a dead one within seconds.
  static Result<MessageSocket> connect_dealer(NetContext& ctx, const std::string& endpoint,
                                              const std::string& identity,
                                              const CurveClient* curve = nullptr);
  MessageSocket(MessageSocket&&) noexcept;
  MessageSocket& operator=(MessageSocket&&) noexcept;
  ~MessageSocket();

  // Non-blocking. nullopt when nothing waits. A message of the wrong shape (not exactly
  // [identity, frame] on a ROUTER, or not one part on a DEALER) is dropped and counted.
  std::optional<Inbound> receive();
  // Non-blocking; an unknown or gone ROUTER peer, or a full queue, is an error, never a hang.
  Status send(std::string_view peer, std::string_view frame);
  Status send(std::string_view frame) { return send({}, frame); }

  std::uint64_t dropped() const;
  const std::string& endpoint() const;
  void* handle() const;  // for the Poller

 private:
  struct Impl;
  explicit MessageSocket(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fairway::net
