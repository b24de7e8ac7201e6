// A job step's byte stream between a node's relay (fairway-step) and the client (fairway
// run): wire frames, each behind a 4-byte big-endian length, over a plain TCP connection.
// No libzmq: the relay forks the user's tasks and the CLI links statically. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "shared/base/result.h"
#include "shared/wire/messages.h"

namespace fairway::net {

// Largest frame a reader takes: an output chunk is at most kStepChunkBytes.
inline constexpr std::size_t kStepChunkBytes = 64 * 1024;
inline constexpr std::size_t kMaxStepFrameBytes = 1 << 20;

// `m` encoded and prefixed with its length.
std::string step_frame(const wire::StepIo& m);

// Reassembles frames from bytes as they arrive. An oversized or undecodable frame, or one
// that is not a StepIo, is an error after which the connection must be dropped.
class StepStreamReader {
 public:
  void feed(std::string_view bytes) { buffer_.append(bytes); }
  // The next whole message, nullopt when more bytes are needed.
  Result<std::optional<wire::StepIo>> next();

 private:
  std::string buffer_;
  std::size_t offset_ = 0;
};

// An error of the stream ("step stream: WHAT"), as the reader and the address parser give.
Error step_stream_error(const std::string& what);

// "tcp://HOST:PORT" split; an error names what is wrong with it.
Result<std::pair<std::string, std::uint16_t>> parse_tcp_address(std::string_view address);

// A connected blocking TCP socket to `address`, within `timeout_ms`.
Result<int> connect_step_stream(std::string_view address, int timeout_ms);

// A listening TCP socket on `host` (a numeric address) and an ephemeral port, and its
// address as "tcp://HOST:PORT". It does not block: accept returns at once when no
// connection waits (connections it accepts block as usual).
Result<std::pair<int, std::string>> listen_step_stream(const std::string& host);

// The local address this host uses to reach `host` (no packet is sent: a UDP socket is
// connected and asked its name); 127.0.0.1 when `host` is this machine's loopback.
Result<std::string> local_address_towards(const std::string& host);

// Writes all of `bytes` to the blocking `fd` (a socket, without SIGPIPE; or a pipe or
// terminal); false when the reader is gone.
bool write_all(int fd, std::string_view bytes);

}  // namespace fairway::net
