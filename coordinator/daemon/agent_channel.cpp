// The agent channel: whose frame each one is (the connection's key, not the routing id a
// peer chose) and which connection a node's frames go to (AgentRoutes).
#include "coordinator/daemon/agent_channel.h"

#include <algorithm>

#include "shared/base/hex.h"
#include "shared/base/log.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {

namespace {

// A routing id as logs write it: itself when printable (an agent's "n1.3f9a..."), else hex.
std::string route_text(std::string_view route) {
  const bool printable = std::all_of(route.begin(), route.end(), [](char c) { return c > ' ' && c < 127; });
  return printable ? std::string(route) : "0x" + to_hex(route);
}

// The node an agent message says it comes from (empty: a message that names none).
std::string claimed_node(const wire::Message& m) {
  if (auto* r = std::get_if<wire::AgentRegister>(&m)) return r->node;
  if (auto* h = std::get_if<wire::Heartbeat>(&m)) return h->node;
  if (auto* u = std::get_if<wire::JobStatusUpdate>(&m)) return u->node;
  return {};
}

}  // namespace

void AgentChannel::refuse(const std::string& route, const std::string& node, const std::string& key_of,
                          const std::string& why, ServiceCounters& counters) const {
  // Every one of the first hundred, then one in a thousand: a flood cannot fill the log.
  if (counters.impostor_frames < 100 || counters.impostor_frames % 1000 == 0) {
    log_event(LogLevel::kWarning, "agent_refused",
              {{"node", node}, {"key_of", key_of}, {"route", route_text(route)}, {"error", why}});
  }
  ++counters.impostor_frames;
}

std::optional<AgentChannel::Admitted> AgentChannel::admit(const std::string& route, std::string_view frame,
                                                          std::string_view authenticated,
                                                          ServiceCounters& counters,
                                                          std::vector<Outgoing>& out) {
  // The node whose frame this is: with CURVE the key's, never the routing id's, which
  // the peer chose (a holder of n2's key calling itself "n1" is n2).
  const std::string node = by_key_ ? std::string(authenticated) : route;
  if (by_key_ && node.empty()) {
    refuse(route, route, "", "the connection has no key of a node", counters);
    return std::nullopt;
  }
  auto decoded = wire::decode(frame);
  if (!decoded) {
    ++counters.bad_frames;
    log_event(LogLevel::kWarning, "bad_agent_frame", {{"peer", node}, {"error", decoded.error().message}});
    return std::nullopt;
  }
  const std::string claimed = claimed_node(*decoded);
  if (by_key_) {
    if (!claimed.empty() && claimed != node) {
      // A listed key speaking for another node: never served, never answered.
      refuse(route, claimed, node, "the connection's key does not belong to this node", counters);
      return std::nullopt;
    }
    // ZeroMQ gave this routing id to a new peer: whichever node held it has left it.
    if (auto gone = routes_.forget_reused(route, node)) {
      log_event(LogLevel::kWarning, "agent_route_reused",
                {{"node", *gone}, {"by", node}, {"route", route_text(route)}});
    }
    const bool registering = std::holds_alternative<wire::AgentRegister>(*decoded);
    const AgentRoutes::Decision d = routes_.heard(node, route, registering);
    switch (d.verdict) {
      case AgentRoutes::Verdict::kServe:
        break;
      case AgentRoutes::Verdict::kReplaced:
        // The old connection is closed to us: nothing of it is read or answered again.
        log_event(
            LogLevel::kWarning, "agent_connection_replaced",
            {{"node", node}, {"old_route", route_text(d.replaced_route)}, {"route", route_text(route)}});
        out.push_back({Channel::kAgents, node,
                       wire::encode(wire::ErrorReply{
                           ErrorCode::kPermissionDenied,
                           "a newer connection of node " + node + "'s key registered: this one is closed"}),
                       d.replaced_route});
        break;
      case AgentRoutes::Verdict::kRegister:
        // A second connection of the key that has not registered: answered only there.
        out.push_back(
            {Channel::kAgents, node,
             wire::encode(wire::ErrorReply{ErrorCode::kFailedPrecondition,
                                           "node '" + node + "' speaks on a new connection; register again"}),
             route});
        return std::nullopt;
      case AgentRoutes::Verdict::kSuperseded:
        refuse(route, node, node, "a newer connection of this node's key replaced this one", counters);
        return std::nullopt;
    }
  }
  return Admitted{node, std::move(*decoded)};
}

void AgentChannel::address(std::vector<Outgoing>& out) const {
  // A frame for a node goes only to the connection its key speaks on; one already
  // addressed (a refusal to the connection that asked) keeps its route.
  for (Outgoing& o : out) {
    if (o.channel != Channel::kAgents || !o.route.empty()) continue;
    if (!by_key_) {
      o.route = o.peer;
    } else if (auto r = routes_.route_of(o.peer)) {
      o.route = *r;
    }
  }
}

}  // namespace fairway::daemon
