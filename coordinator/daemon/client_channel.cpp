#include "coordinator/daemon/client_channel.h"
#include "shared/base/try.h"

#include <utility>

namespace fairway::daemon {

Result<ClientChannel> ClientChannel::bind(net::NetContext& ctx, const std::string& endpoint) {
  ClientChannel channel;
  if (endpoint.starts_with("ipc://")) {
    FAIRWAY_TRY_ASSIGN(router, net::ZmtpUnixRouter::bind(endpoint.substr(6)));
    channel.local_.emplace(std::move(router));
  } else {
    FAIRWAY_TRY_ASSIGN(socket, net::MessageSocket::bind_router(ctx, endpoint));
    channel.remote_.emplace(std::move(socket));
  }
  return channel;
}

std::size_t ClientChannel::add_to(net::Poller& poller) const {
  return local_ ? poller.add_fd(local_->fd()) : poller.add(*remote_);
}

void ClientChannel::serve(std::chrono::steady_clock::time_point now) {
  if (local_) local_->serve(now);
}

std::optional<net::Inbound> ClientChannel::receive() {
  return local_ ? local_->receive() : remote_->receive();
}

bool ClientChannel::has_pending() const {
  return local_ && local_->has_pending();
}

Status ClientChannel::send(std::string_view peer, std::string_view frame) {
  return local_ ? local_->send(peer, frame) : remote_->send(peer, frame);
}

}  // namespace fairway::daemon
