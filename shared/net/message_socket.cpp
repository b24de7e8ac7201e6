#include "shared/net/message_socket.h"

#include <zmq.hpp>

#include <utility>

#include "shared/net/net_context_impl.h"

namespace fairway::net {

struct NetContext::Impl {
  zmq::context_t ctx{1};
};

struct NetContextAccess {
  static zmq::context_t& get(NetContext& c) { return c.impl_->ctx; }
};

zmq::context_t& context_of(NetContext& ctx) {
  return NetContextAccess::get(ctx);
}

NetContext::NetContext() : impl_(std::make_unique<Impl>()) {}
NetContext::~NetContext() = default;

struct MessageSocket::Impl {
  Impl(zmq::context_t& ctx, zmq::socket_type type, std::string ep)
      : socket(ctx, type),
        endpoint(std::move(ep)),
        router(type == zmq::socket_type::router),
        ipc(router && endpoint.starts_with("ipc://")) {}
  zmq::socket_t socket;
  std::string endpoint;
  bool router;
  bool ipc;                    // a ROUTER on a Unix socket: the kernel tells who each peer is
  bool authenticated = false;  // CURVE server: each message names its ZAP user id
  std::uint64_t dropped = 0;
};

namespace {

Error socket_error(const std::string& what, const std::string& endpoint, const zmq::error_t& e) {
  return Error{ErrorCode::kIo, what + " " + endpoint + ": " + e.what()};
}

// Bounded queues: a peer that stops reading costs memory up to here, then sends fail.
constexpr int kHighWaterMark = 100000;
constexpr int kHeartbeatIntervalMs = 1000;
constexpr int kHeartbeatTimeoutMs = 5000;

void common_options(zmq::socket_t& s) {
  s.set(zmq::sockopt::linger, 0);  // never hang a daemon's exit on unsent frames
  s.set(zmq::sockopt::sndhwm, kHighWaterMark);
  s.set(zmq::sockopt::rcvhwm, kHighWaterMark);
  // Checked before a frame is buffered, so an oversized frame costs no memory.
  s.set(zmq::sockopt::maxmsgsize, std::int64_t{32} << 20);
  // ZMTP heartbeats: a peer that vanished without closing (power loss, a cut cable) is
  // dropped within seconds, so its routing id is free for its next connection instead of
  // locking that out (a ROUTER ignores a second peer with an id still in use).
  s.set(zmq::sockopt::heartbeat_ivl, kHeartbeatIntervalMs);
  s.set(zmq::sockopt::heartbeat_timeout, kHeartbeatTimeoutMs);
  s.set(zmq::sockopt::heartbeat_ttl, kHeartbeatTimeoutMs);
}

}  // namespace

MessageSocket::MessageSocket(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
MessageSocket::MessageSocket(MessageSocket&&) noexcept = default;
MessageSocket& MessageSocket::operator=(MessageSocket&&) noexcept = default;
MessageSocket::~MessageSocket() = default;

Result<MessageSocket> MessageSocket::bind_router(NetContext& ctx, const std::string& endpoint,
                                                 const CurveServer* curve) {
  try {
    auto impl = std::make_unique<Impl>(ctx.impl_->ctx, zmq::socket_type::router, endpoint);
    common_options(impl->socket);
    if (curve != nullptr) {
      impl->socket.set(zmq::sockopt::curve_server, 1);
      impl->socket.set(zmq::sockopt::curve_secretkey, curve->secret_key_z85);
      impl->socket.set(zmq::sockopt::zap_domain, curve->zap_domain);
      impl->authenticated = true;
    }
    // An unroutable reply is an error we see, not a silent drop.
    impl->socket.set(zmq::sockopt::router_mandatory, 1);
    impl->socket.bind(endpoint);
    return MessageSocket(std::move(impl));
  } catch (const zmq::error_t& e) {
    return std::unexpected(socket_error("cannot listen on", endpoint, e));
  }
}

Result<MessageSocket> MessageSocket::connect_dealer(NetContext& ctx, const std::string& endpoint,
                                                    const std::string& identity, const CurveClient* curve) {
  try {
    auto impl = std::make_unique<Impl>(ctx.impl_->ctx, zmq::socket_type::dealer, endpoint);
    common_options(impl->socket);
    if (curve != nullptr) {
      impl->socket.set(zmq::sockopt::curve_serverkey, curve->server_public_z85);
      impl->socket.set(zmq::sockopt::curve_publickey, curve->public_key_z85);
      impl->socket.set(zmq::sockopt::curve_secretkey, curve->secret_key_z85);
    }
    if (!identity.empty()) impl->socket.set(zmq::sockopt::routing_id, identity);
    impl->socket.set(zmq::sockopt::reconnect_ivl, 200);
    impl->socket.set(zmq::sockopt::reconnect_ivl_max, 5000);
    impl->socket.connect(endpoint);
    return MessageSocket(std::move(impl));
  } catch (const zmq::error_t& e) {
    return std::unexpected(socket_error("cannot connect to", endpoint, e));
  }
}

std::optional<Inbound> MessageSocket::receive() {
  const std::size_t parts_expected = impl_->router ? 2 : 1;
  for (;;) {
    Inbound in;
    std::size_t parts = 0;
    bool more = true;
    try {
      while (more) {
        zmq::message_t m;
        const auto got =
            impl_->socket.recv(m, parts == 0 ? zmq::recv_flags::dontwait : zmq::recv_flags::none);
        if (!got) return std::nullopt;  // nothing waiting (only possible on the first part)
        more = m.more();
        if (parts == 0 && impl_->router) {
          in.peer = m.to_string();
        } else if (parts + 1 == parts_expected) {
          in.frame = m.to_string();
          if (impl_->ipc) {
            if (const char* address = zmq_msg_gets(m.handle(), "Peer-Address")) {
              in.credentials = parse_ipc_peer_address(address);
            }
          }
          if (impl_->authenticated) {
            if (const char* user = zmq_msg_gets(m.handle(), "User-Id")) in.authenticated_id = user;
          }
        }
        ++parts;
      }
    } catch (const zmq::error_t&) {
      return std::nullopt;
    }
    if (parts == parts_expected) return in;
    ++impl_->dropped;  // wrong shape: read on, it must not block the socket
  }
}

Status MessageSocket::send(std::string_view peer, std::string_view frame) {
  try {
    if (impl_->router) {
      if (!impl_->socket.send(zmq::buffer(peer), zmq::send_flags::sndmore | zmq::send_flags::dontwait)) {
        return make_error(ErrorCode::kResourceExhausted, "send queue to '" + std::string(peer) + "' is full");
      }
    }
    if (!impl_->socket.send(zmq::buffer(frame), zmq::send_flags::dontwait)) {
      return make_error(ErrorCode::kResourceExhausted, "send queue on " + impl_->endpoint + " is full");
    }
    return ok_status();
  } catch (const zmq::error_t& e) {
    // EHOSTUNREACH with ROUTER_MANDATORY: that peer is gone.
    return make_error(ErrorCode::kIo,
                      "cannot send to '" + std::string(peer) + "' on " + impl_->endpoint + ": " + e.what());
  }
}

std::uint64_t MessageSocket::dropped() const {
  return impl_->dropped;
}
const std::string& MessageSocket::endpoint() const {
  return impl_->endpoint;
}
void* MessageSocket::handle() const {
  return impl_->socket.handle();
}

}  // namespace fairway::net
