// Waits until one of a set of message sockets or file descriptors is readable, or a
// timeout passes: the single wait of a daemon's one event-loop thread. Not thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

#include "shared/base/result.h"
#include "shared/net/message_socket.h"

namespace fairway::net {

class Poller {
 public:
  // Returns the index to find the source in wait()'s answer.
  std::size_t add(const MessageSocket& socket);
  std::size_t add_fd(int fd);
  // Any ZeroMQ socket handle of this directory (the ZapHandler's).
  std::size_t add_handle(void* zmq_socket);

  // Readiness per added source, in add order. An interrupted wait (EINTR: a signal such as
  // SIGCHLD or SIGTERM arrived) is not an error: it returns with nothing ready.
  Result<std::vector<bool>> wait(std::chrono::milliseconds timeout);

 private:
  struct Source {
    void* socket = nullptr;
    int fd = -1;
  };
  std::vector<Source> sources_;
};

}  // namespace fairway::net
