// The client side of the coordinator's client channel: a DEALER that sends one encoded
// message per request and waits for the one-part reply. Not thread-safe: one per thread.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "shared/base/duration_format.h"
#include "shared/base/result.h"
#include "shared/wire/messages.h"

namespace fairway::net {

class RequestClient {
 public:
  // Fails only on an endpoint ZeroMQ cannot parse; the error names the endpoint. Connecting
  // is asynchronous, so an absent coordinator shows up as a timeout in call().
  static Result<RequestClient> connect(const std::string& endpoint);

  RequestClient(RequestClient&&) noexcept;
  RequestClient& operator=(RequestClient&&) noexcept;
  ~RequestClient();

  // Sends one message and waits up to `timeout` for its reply. A timeout is an Error
  // ("no reply from the coordinator at ENDPOINT within 5 s"), and so is an undecodable
  // reply; an ErrorReply from the server comes back as the Message for the caller to show.
  // After a timeout the socket is replaced, so a late reply cannot answer a later call.
  Result<wire::Message> call(const wire::Message& request, std::chrono::milliseconds timeout);

  const std::string& endpoint() const;

 private:
  struct Impl;
  explicit RequestClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// "5 s", "250 ms" (shared/base/duration_format.h).
using fairway::describe_timeout;

}  // namespace fairway::net
