// A ROUTER on a Unix socket served by the event-loop thread itself: ZMTP 3.1 with the NULL
// mechanism, so libzmq DEALERs and the CLI's plain client both talk to it, and each
// peer's uid/gid/pid from SO_PEERCRED. Local clients used to cross libzmq's I/O thread
// twice per request (and that thread was 44 % of a submit's coordinator CPU); here the
// loop reads and answers them directly. Not thread-safe: owned and used by one thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "shared/base/result.h"
#include "shared/net/message_socket.h"

namespace fairway::net {

class ZmtpUnixRouter {
 public:
  using Clock = std::chrono::steady_clock;
  struct Limits {
    std::uint64_t max_frame = std::uint64_t{32} << 20;  // as MessageSocket's maxmsgsize
    std::size_t max_connections = 4096;
    // One user cannot hold every connection slot; root is not limited.
    std::size_t max_connections_per_uid = 256;
    // What one uid's connections may make us hold together: partial inbound frames,
    // messages read and not yet taken, queued replies and PONGs. The connection that would
    // pass it is closed (with a log line naming the uid and the bytes). Root is not limited.
    // At least max_frame, so that one request of the largest size can always be read.
    std::size_t max_bytes_per_uid = std::size_t{64} << 20;
    // Replies and PONGs queued for one peer that does not read (root's too); beyond it,
    // sends to that peer fail.
    std::size_t max_output_bytes = std::size_t{512} << 20;
    // A peer that connects and does not finish its handshake is dropped after this.
    std::chrono::milliseconds handshake_timeout{10000};
    // A message begun and not finished within this (no whole message arrived on the
    // connection since its first byte) closes the connection: a stalled or trickled frame
    // cannot pin its buffer. A local peer writes a 32 MiB frame in milliseconds.
    std::chrono::milliseconds frame_timeout{10000};
  };

  // Listens at the socket file `path` (its directory must exist; a file there is an error:
  // the daemon removes stale ones first).
  static Result<ZmtpUnixRouter> bind(const std::string& path, Limits limits);
  static Result<ZmtpUnixRouter> bind(const std::string& path) { return bind(path, Limits{}); }
  ZmtpUnixRouter(ZmtpUnixRouter&&) noexcept;
  ZmtpUnixRouter& operator=(ZmtpUnixRouter&&) noexcept;
  ~ZmtpUnixRouter();

  // Readable when serve() has work (an epoll descriptor): for the loop's Poller.
  int fd() const;
  // Accepts, reads and writes whatever is ready, and drops handshakes and unfinished
  // messages older than their limits. Never blocks. Complete messages wait for receive().
  void serve(Clock::time_point now);
  // Messages already read: call until nullopt after each serve(). Only one-part messages
  // are delivered (as a ROUTER with a DEALER peer sees them); others are dropped and
  // counted. `credentials` is always set.
  std::optional<Inbound> receive();
  bool has_pending() const;
  // Queues one frame to the peer and writes what the socket takes now; the rest goes out
  // from serve(). A gone peer or one over its output limit is an error, never a hang.
  Status send(std::string_view peer, std::string_view frame);

  // Messages dropped (wrong shape) and connections closed for breaking the protocol or the
  // limits.
  std::uint64_t dropped() const;
  std::size_t connections() const;
  // Bytes held for `uid`'s connections now (what max_bytes_per_uid bounds).
  std::size_t held_by(std::uint32_t uid) const;
  const std::string& path() const;

 private:
  struct State;
  explicit ZmtpUnixRouter(std::unique_ptr<State> state);
  std::unique_ptr<State> s_;
};

}  // namespace fairway::net
