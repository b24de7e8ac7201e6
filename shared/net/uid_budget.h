// What each local user (uid) makes the coordinator's Unix-socket router hold: its open
// connections and the bytes buffered for them, each against a per-uid limit.
// Pure bookkeeping (no I/O): the router charges and releases, this says what is left.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>

namespace fairway::net {

class UidBudget {
 public:
  // `max_bytes`: what one uid's connections may hold together (partial inbound frames,
  // messages read and not yet taken, queued replies and PONGs). Root (uid 0) is not
  // limited, as it is not in connection slots: it can stop the coordinator anyway.
  UidBudget(std::size_t max_connections, std::size_t max_bytes)
      : max_connections_(max_connections), max_bytes_(max_bytes) {}

  // Whether `uid` may open one more connection (it has fewer than the limit).
  bool may_connect(std::uint32_t uid) const;
  void connected(std::uint32_t uid);
  void disconnected(std::uint32_t uid);

  // Bytes `uid` may still make the router hold; unlimited for root.
  std::size_t room(std::uint32_t uid) const;
  // Adds (or, negative, releases) bytes held for `uid`.
  void charge(std::uint32_t uid, std::ptrdiff_t bytes);
  std::size_t held(std::uint32_t uid) const;
  std::size_t max_bytes() const { return max_bytes_; }

  // Users with anything open or held (the map does not grow with users who left).
  std::size_t users() const { return users_.size(); }

  static constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();

 private:
  struct Use {
    std::size_t connections = 0;
    std::size_t bytes = 0;
  };
  void forget_if_idle(std::uint32_t uid);

  std::size_t max_connections_;
  std::size_t max_bytes_;
  std::unordered_map<std::uint32_t, Use> users_;
};

}  // namespace fairway::net
