#include "shared/net/request_client.h"

#include <zmq.hpp>

#include <utility>

#include "shared/base/try.h"
#include "shared/wire/codec.h"

namespace fairway::net {

struct RequestClient::Impl {
  std::string endpoint;
  zmq::context_t context{1};
  zmq::socket_t socket;

  // A fresh DEALER: LINGER 0 so that a CLI with an unsent request never hangs at exit.
  Status open() {
    try {
      zmq::socket_t s(context, zmq::socket_type::dealer);
      s.set(zmq::sockopt::linger, 0);
      s.connect(endpoint);
      socket = std::move(s);
      return ok_status();
    } catch (const zmq::error_t& e) {
      return invalid_argument("cannot connect to the coordinator at \"" + endpoint + "\": " + e.what());
    }
  }
};

RequestClient::RequestClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RequestClient::RequestClient(RequestClient&&) noexcept = default;
RequestClient& RequestClient::operator=(RequestClient&&) noexcept = default;
RequestClient::~RequestClient() = default;

const std::string& RequestClient::endpoint() const {
  return impl_->endpoint;
}

Result<RequestClient> RequestClient::connect(const std::string& endpoint) {
  if (endpoint.empty()) return invalid_argument("coordinator endpoint is empty");
  auto impl = std::make_unique<Impl>();
  impl->endpoint = endpoint;
  FAIRWAY_TRY(impl->open());
  return RequestClient(std::move(impl));
}

Result<wire::Message> RequestClient::call(const wire::Message& request, std::chrono::milliseconds timeout) {
  Impl& im = *impl_;
  const auto no_reply = [&]() -> std::unexpected<Error> {
    // Drop the socket with its queued request: a late reply must not answer the next call.
    FAIRWAY_TRY(im.open());
    return make_error(ErrorCode::kIo, "no reply from the coordinator at " + im.endpoint + " within " +
                                          describe_timeout(timeout));
  };
  try {
    const std::string frame = wire::encode(request);
    im.socket.set(zmq::sockopt::sndtimeo, static_cast<int>(timeout.count()));
    if (!im.socket.send(zmq::buffer(frame), zmq::send_flags::none)) return no_reply();

    zmq::pollitem_t item{im.socket.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq::poll(&item, 1, timeout) == 0) return no_reply();
    zmq::message_t reply;
    if (!im.socket.recv(reply, zmq::recv_flags::dontwait)) return no_reply();
    // The convention is one part; extra parts are drained so they cannot answer a later call.
    std::size_t extra_parts = 0;
    for (bool more = reply.more(); more;) {
      zmq::message_t rest;
      if (!im.socket.recv(rest, zmq::recv_flags::dontwait)) break;
      ++extra_parts;
      more = rest.more();
    }
    if (extra_parts > 0) {
      return make_error(ErrorCode::kIo, "reply from the coordinator at " + im.endpoint + " has " +
                                            std::to_string(extra_parts + 1) + " parts; expected one");
    }
    auto decoded = wire::decode(reply.to_string_view());
    if (!decoded) {
      return std::unexpected(
          decoded.error().with_context("bad reply from the coordinator at " + im.endpoint));
    }
    return decoded;
  } catch (const zmq::error_t& e) {
    return make_error(ErrorCode::kIo, "talking to the coordinator at " + im.endpoint + ": " + e.what());
  }
}

}  // namespace fairway::net
