// The CLI's side of the coordinator's client channel without libzmq: ZMTP 3.1 (NULL
// mechanism) as a DEALER over ipc:// or tcp://, one request and one reply at a time.
// Loading libzmq's dependency chain was most of a `fairway` command's run time. Not
// thread-safe: one per thread. Same contract as RequestClient (request_client.h).
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "shared/base/result.h"
#include "shared/wire/messages.h"

namespace fairway::net {

class ZmtpRequestClient {
 public:
  // Checks the endpoint's form only ("ipc://PATH" or "tcp://HOST:PORT"); the connection
  // is made by the first call, so an absent coordinator shows up there.
  static Result<ZmtpRequestClient> connect(const std::string& endpoint);

  ZmtpRequestClient(ZmtpRequestClient&&) noexcept;
  ZmtpRequestClient& operator=(ZmtpRequestClient&&) noexcept;
  ~ZmtpRequestClient();

  // Sends one message, waits up to `timeout` for its one-part reply. Errors: no reply in
  // time ("no reply from the coordinator at ENDPOINT within 5 s"), a refused or broken
  // connection, a peer that does not speak ZMTP 3 or refuses us (its ERROR reason), an
  // undecodable reply. After an error the connection is dropped and remade by the next call.
  Result<wire::Message> call(const wire::Message& request, std::chrono::milliseconds timeout);

  const std::string& endpoint() const { return endpoint_; }

 private:
  explicit ZmtpRequestClient(std::string endpoint) : endpoint_(std::move(endpoint)) {}
  // Connects and handshakes; `first_frame` (a whole frame, or empty) goes out in the same
  // write as the greeting. `hung_up`: set when the peer closed during the handshake.
  Status open(std::chrono::steady_clock::time_point deadline, std::string_view first_frame,
              bool* hung_up = nullptr);
  void close_socket();

  std::string endpoint_;
  int fd_ = -1;
  std::string in_;  // received, not yet parsed from in_at_
  std::size_t in_at_ = 0;
};

}  // namespace fairway::net
