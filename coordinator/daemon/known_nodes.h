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

std::string known_node_record(const NodeTopology& topology);
// Error naming what is wrong when the record is not one known_node_record() wrote.
Result<NodeTopology> parse_known_node_record(std::string_view record);

}  // namespace fairway::daemon
