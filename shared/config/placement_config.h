// How a partition places jobs on its nodes: the allocation unit, GPU-socket fencing and
// Fram-style islands. Plain data, part of PartitionConfig; parsed in config_placement.cpp.
#pragma once

#include <string_view>

namespace fairway {

// The smallest piece of a node a job of the partition is given (and billed for).
enum class AllocationUnit {
  kCore,    // exactly the cores asked for
  kSocket,  // whole sockets: the cores asked for, rounded up to sockets (Kebnekaise largemem)
  kNode,    // whole nodes
};

// Whether a multi-node job is kept within one island (a node group with a faster
// network between its members, NodeTopology::island).
enum class IslandPlacement {
  kAny,      // islands are ignored
  kPrefer,   // one island when one has room now, otherwise across islands
  kRequire,  // a job that one island could hold waits for one island (Fram); a job larger
             // than every island, or one with JobSpec::allow_multi_island, spans islands
};

struct PlacementConfig {
  AllocationUnit allocation_unit = AllocationUnit::kCore;
  // On nodes with GPUs: a job holding a GPU keeps the rest of that GPU's socket (its
  // cores and other GPUs), and a GPU is given only when no other job uses its socket.
  // It is the rule the agent enforces, so it is a property of the node: a node follows
  // it when any partition holding it says so.
  bool socket_exclusive_gpus = true;
  IslandPlacement island_placement = IslandPlacement::kPrefer;
  bool operator==(const PlacementConfig&) const = default;
};

std::string_view to_string(AllocationUnit u);
std::string_view to_string(IslandPlacement p);

}  // namespace fairway
