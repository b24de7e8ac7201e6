#include "coordinator/daemon/agent_routes.h"

#include <algorithm>

namespace fairway::daemon {

AgentRoutes::Decision AgentRoutes::heard(const std::string& node, const std::string& route,
                                         bool registering) {
  NodeRoutes& n = nodes_[node];
  if (n.current.empty() || n.current == route) {
    if (n.current.empty()) {
      // A node's first connection since we started (or since its old one was reused).
      if (std::find(n.retired.begin(), n.retired.end(), route) != n.retired.end()) {
        return {Verdict::kSuperseded, {}};
      }
      n.current = route;
      node_of_route_[route] = node;
    }
    return {Verdict::kServe, {}};
  }
  if (std::find(n.retired.begin(), n.retired.end(), route) != n.retired.end())
    return {Verdict::kSuperseded, {}};
  if (!registering) return {Verdict::kRegister, {}};
  // The same key registered on a second connection: the newer one is the node's agent.
  Decision d{Verdict::kReplaced, n.current};
  node_of_route_.erase(n.current);
  n.retired.push_back(n.current);
  if (n.retired.size() > kRetiredKept) n.retired.pop_front();
  n.current = route;
  node_of_route_[route] = node;
  return d;
}

std::optional<std::string> AgentRoutes::route_of(const std::string& node) const {
  auto it = nodes_.find(node);
  if (it == nodes_.end() || it->second.current.empty()) return std::nullopt;
  return it->second.current;
}

std::optional<std::string> AgentRoutes::forget_reused(const std::string& route, const std::string& node) {
  auto it = node_of_route_.find(route);
  if (it == node_of_route_.end() || it->second == node) return std::nullopt;
  std::string was = it->second;
  nodes_[was].current.clear();
  node_of_route_.erase(it);
  return was;
}

}  // namespace fairway::daemon
