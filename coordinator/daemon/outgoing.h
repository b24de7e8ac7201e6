// A frame the coordinator sends when its turn commits: to an agent (by node, on the
// connection its key speaks on) or to a client (by its ROUTER identity).
#pragma once

#include <string>

#include "coordinator/daemon/service_context.h"

namespace fairway::daemon {

struct Outgoing {
  Channel channel;
  std::string peer;   // the agent's node name, or the client's ROUTER identity
  std::string frame;  // encoded
  // Agents: the connection it goes to, the one the node's key speaks on (AgentRoutes);
  // empty when no connection of that key is known, and then it is not sent.
  std::string route;
};

}  // namespace fairway::daemon
