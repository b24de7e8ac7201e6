#include "shared/net/zap_handler.h"

#include <zmq.hpp>

#include <vector>

#include "shared/net/net_context_impl.h"

namespace fairway::net {

struct ZapHandler::Impl {
  Impl(zmq::context_t& ctx, Decide d) : socket(ctx, zmq::socket_type::rep), decide(std::move(d)) {}
  zmq::socket_t socket;
  Decide decide;
};

ZapHandler::ZapHandler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ZapHandler::ZapHandler(ZapHandler&&) noexcept = default;
ZapHandler& ZapHandler::operator=(ZapHandler&&) noexcept = default;
ZapHandler::~ZapHandler() = default;

Result<ZapHandler> ZapHandler::bind(NetContext& ctx, Decide decide) {
  try {
    auto impl = std::make_unique<Impl>(context_of(ctx), std::move(decide));
    impl->socket.set(zmq::sockopt::linger, 0);
    impl->socket.bind("inproc://zeromq.zap.01");
    return ZapHandler(std::move(impl));
  } catch (const zmq::error_t& e) {
    return make_error(ErrorCode::kIo, std::string("cannot start the ZAP handler: ") + e.what());
  }
}

void* ZapHandler::handle() const {
  return impl_->socket.handle();
}

void ZapHandler::serve() {
  for (;;) {
    std::vector<zmq::message_t> parts;
    try {
      bool more = true;
      while (more) {
        zmq::message_t m;
        const auto got =
            impl_->socket.recv(m, parts.empty() ? zmq::recv_flags::dontwait : zmq::recv_flags::none);
        if (!got) return;
        more = m.more();
        parts.push_back(std::move(m));
      }
    } catch (const zmq::error_t&) {
      return;
    }
    // RFC 27: version, request id, domain, address, identity, mechanism, credentials...
    std::string status = "400", text = "malformed ZAP request", user;
    std::string request_id = parts.size() > 1 ? parts[1].to_string() : std::string();
    if (parts.size() >= 6 && parts[0].to_string() == "1.0") {
      ZapRequest r;
      r.domain = parts[2].to_string();
      r.address = parts[3].to_string();
      r.mechanism = parts[5].to_string();
      if (r.mechanism == "CURVE" && parts.size() >= 7 && parts[6].size() == 32) {
        char z85[41];
        zmq_z85_encode(z85, static_cast<const std::uint8_t*>(parts[6].data()), 32);
        r.client_key = z85;
      }
      if (auto id = impl_->decide(r)) {
        status = "200", text = "OK", user = *id;
      } else {
        status = "400", text = "not admitted";
      }
    }
    try {
      impl_->socket.send(zmq::buffer(std::string_view("1.0")), zmq::send_flags::sndmore);
      impl_->socket.send(zmq::buffer(request_id), zmq::send_flags::sndmore);
      impl_->socket.send(zmq::buffer(status), zmq::send_flags::sndmore);
      impl_->socket.send(zmq::buffer(text), zmq::send_flags::sndmore);
      impl_->socket.send(zmq::buffer(user), zmq::send_flags::sndmore);
      impl_->socket.send(zmq::buffer(std::string_view()), zmq::send_flags::none);
    } catch (const zmq::error_t&) {
      return;
    }
  }
}

}  // namespace fairway::net
