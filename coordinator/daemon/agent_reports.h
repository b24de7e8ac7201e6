// What the coordinator makes of its agents' reports: a registration (the node's machine,
// what it runs, reconciled with what we believe), heartbeats, and its jobs' status updates.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "coordinator/daemon/agent_turn.h"
#include "coordinator/daemon/node_registry.h"
#include "coordinator/daemon/stored_job.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

class AgentReports {
 public:
  AgentReports() = default;
  // What a restart left waiting for nodes to register: the rows of running jobs whose
  // nodes have not all returned, and the drains stored for nodes not known yet.
  AgentReports(std::unordered_map<std::uint64_t, StoredJob> awaiting_nodes,
               std::unordered_map<std::string, NodeAdminState> stored_drains)
      : awaiting_nodes_(std::move(awaiting_nodes)), stored_drains_(std::move(stored_drains)) {}

  // A message admitted from node `node` (AgentChannel::admit): its answer goes out as a
  // reply of the turn; a message that is not an agent's is counted as a bad frame.
  void serve(AgentTurn& turn, const std::string& node, const wire::Message& m);

 private:
  void on_register(AgentTurn& turn, const std::string& peer, const wire::AgentRegister& m);
  void on_heartbeat(AgentTurn& turn, const std::string& peer, const wire::Heartbeat& m);
  void on_status(AgentTurn& turn, const std::string& peer, const wire::JobStatusUpdate& m);

  std::unordered_map<std::uint64_t, StoredJob> awaiting_nodes_;
  std::unordered_map<std::string, NodeAdminState> stored_drains_;
};

}  // namespace fairway::daemon
