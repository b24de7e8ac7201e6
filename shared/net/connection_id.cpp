#include "shared/net/connection_id.h"

#include <sys/random.h>

#include <cerrno>

#include "shared/base/hex.h"

namespace fairway::net {

Result<std::string> unguessable_routing_id(std::string_view name) {
  unsigned char bytes[16];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return make_error(ErrorCode::kIo, "cannot get random bytes for the connection's routing id");
    got += static_cast<std::size_t>(n);
  }
  // ZeroMQ takes at most 255 bytes; a leading zero byte is its own ids' (never here: the
  // name comes first, and an empty name starts with the dot).
  std::string id(name.substr(0, 200));
  id += '.';
  id += to_hex(std::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes));
  return id;
}

}  // namespace fairway::net
