// The coordinator's agent channel: whose frame each one is (the connection's CURVE key, not
// the routing id a peer chose) and which connection a node's frames go to (AgentRoutes).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "coordinator/daemon/agent_routes.h"
#include "coordinator/daemon/outgoing.h"
#include "coordinator/daemon/service_counters.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

class AgentChannel {
 public:
  // `by_key`: [security] agent_auth = "curve": a frame is the node's whose key sent it, and
  // frames to a node go to the connection its key last registered on. Without CURVE the
  // routing id is the node's name.
  explicit AgentChannel(bool by_key) : by_key_(by_key) {}

  // A frame to serve, and the node it is from.
  struct Admitted {
    std::string node;
    wire::Message message;
  };
  // `route`: the connection's ROUTER routing id; `authenticated`: the node the sender's
  // CURVE key belongs to (empty without CURVE). Nothing when the frame is not to be served
  // (undecodable, an impostor, a connection superseded): logged and counted in `counters`,
  // and the refusals owed to a connection go to `out`, addressed to it.
  std::optional<Admitted> admit(const std::string& route, std::string_view frame,
                                std::string_view authenticated, ServiceCounters& counters,
                                std::vector<Outgoing>& out);
  // Gives each frame to a node that has no route yet the connection it goes to (one already
  // addressed, a refusal to the connection that asked, keeps its route).
  void address(std::vector<Outgoing>& out) const;

 private:
  void refuse(const std::string& route, const std::string& node, const std::string& key_of,
              const std::string& why, ServiceCounters& counters) const;

  bool by_key_;
  AgentRoutes routes_;
};

}  // namespace fairway::daemon
