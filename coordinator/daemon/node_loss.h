// When a node goes silent: its jobs may still run (a partition, a hung agent), so they are
// given up only once its agent has surely stopped them. Run on every timer tick.
#pragma once

#include "coordinator/daemon/agent_turn.h"
#include "shared/config/config.h"

namespace fairway::daemon {

// How long after we last heard a node its jobs may still run: its agent's lease, the kill
// grace, a heartbeat of transit, and the keepers' margin (a keeper fences a second after
// its agent would, and looks once a second: job_keeper.cpp), for a node whose agent died.
Duration lease_out(const Config& config);

// Marks the nodes silent past [coordinator] heartbeat_timeout down, gives up the jobs of
// those silent past their lease (requeued if they allow, else node_fail), and the jobs a
// restart lost track of whose reports are overdue.
void watch_nodes(AgentTurn& turn);

}  // namespace fairway::daemon
