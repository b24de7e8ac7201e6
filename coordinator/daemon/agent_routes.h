// Which connection of the agent channel speaks for each node: learned only from frames
// whose CURVE key is that node's, never from the routing id a peer chose for itself.
// Pure bookkeeping (no sockets); the daemon's event-loop thread owns it. Not thread-safe.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace fairway::daemon {

class AgentRoutes {
 public:
  // What to do with a frame that `node`'s key sent on connection `route`.
  enum class Verdict {
    kServe,       // the node's current connection (or its first): served
    kReplaced,    // a registration on a new connection: it is now the node's, the old one
                  // (replaced_route) is retired
    kRegister,    // a new connection that has not registered: told to, not served
    kSuperseded,  // a connection a newer one replaced: never served or answered again
  };
  struct Decision {
    Verdict verdict = Verdict::kServe;
    std::string replaced_route;  // kReplaced: the connection it retired
  };

  // A frame on `route` authenticated as `node`; `registering` when it is an
  // AgentRegister naming that node. Binds or rebinds the node as the verdict says.
  Decision heard(const std::string& node, const std::string& route, bool registering);

  // Where frames for `node` go: the connection its key last registered or spoke on.
  std::optional<std::string> route_of(const std::string& node) const;

  // A frame on `route` came with another node's key: the connection bound to whatever
  // node held that routing id is gone (ZeroMQ gave the id to a new peer), so nothing is
  // sent there for that node any more. Returns the node unbound, if any.
  std::optional<std::string> forget_reused(const std::string& route, const std::string& node);

  // Retired connections remembered per node; older ones are forgotten (a forgotten one
  // that speaks again is treated as a new connection: told to register).
  static constexpr std::size_t kRetiredKept = 16;

 private:
  struct NodeRoutes {
    std::string current;
    std::deque<std::string> retired;
  };
  std::unordered_map<std::string, NodeRoutes> nodes_;
  std::unordered_map<std::string, std::string> node_of_route_;  // current routes only
};

}  // namespace fairway::daemon
