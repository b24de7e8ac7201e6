// The ZeroMQ context behind a NetContext, for this directory's sockets only: every socket
// that talks over inproc:// (ZAP) must share its context. Thread-safe (zmq contexts are).
#pragma once

#include <zmq.hpp>

#include "shared/net/message_socket.h"

namespace fairway::net {

zmq::context_t& context_of(NetContext& ctx);

}  // namespace fairway::net
