#include "shared/net/poller.h"

#include <zmq.hpp>

#include <cerrno>

namespace fairway::net {

std::size_t Poller::add(const MessageSocket& socket) {
  sources_.push_back({socket.handle(), -1});
  return sources_.size() - 1;
}

std::size_t Poller::add_handle(void* zmq_socket) {
  sources_.push_back({zmq_socket, -1});
  return sources_.size() - 1;
}

std::size_t Poller::add_fd(int fd) {
  sources_.push_back({nullptr, fd});
  return sources_.size() - 1;
}

Result<std::vector<bool>> Poller::wait(std::chrono::milliseconds timeout) {
  std::vector<zmq::pollitem_t> items;
  items.reserve(sources_.size());
  for (const Source& s : sources_) items.push_back({s.socket, s.fd, ZMQ_POLLIN, 0});
  std::vector<bool> ready(sources_.size(), false);
  try {
    zmq::poll(items.data(), items.size(), timeout);
  } catch (const zmq::error_t& e) {
    if (e.num() == EINTR) return ready;
    return make_error(ErrorCode::kIo, std::string("poll failed: ") + e.what());
  }
  for (std::size_t i = 0; i < items.size(); ++i) ready[i] = (items[i].revents & ZMQ_POLLIN) != 0;
  return ready;
}

}  // namespace fairway::net
