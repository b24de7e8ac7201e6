// The nodes a coordinator without [[nodes]] learned from registrations, kept in the store
// so that after a restart it still knows its machine (admission checks, `fairway nodes`)
// before the agents come back. One record per node: its topology. Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "shared/base/result.h"
#include "shared/model/topology.h"

namespace fairway::daemon {

inline constexpr std::string_view kKnownNodePrefix = "node/";
// A project reservation the coordinator cancelled for low use: its name, the time in
// epoch seconds.
inline constexpr std::string_view kReservationCancelledPrefix = "reservation_cancelled/";

// The store's own record of the node (schema 8 on), apart from the wire format.
std::string known_node_record(const NodeTopology& topology);
// Error naming what is wrong when the record is not one known_node_record() wrote; a record
// of a newer version is kFailedPrecondition naming it.
Result<NodeTopology> parse_known_node_record(std::string_view record);
// Stores older than schema 8 kept the node as a wire frame (AgentRegister, protocol 1) in
// hex: the same topology as a record, for the schema 8 migration.
Result<std::string> known_node_record_from_wire(std::string_view old_record);

}  // namespace fairway::daemon
