// scontrol show node's and show partition's Key=Value layouts (Slurm 22.05), for the
// tools and people that read them: one block per node or partition. Pure; thread-safe.
#pragma once

#include <string>

#include "shared/wire/messages.h"

namespace fairway::cli {

// What Fairway does not know of a node (its OS, load, boot time) reads as Slurm writes an
// unknown value; the state is Slurm's (IDLE, MIXED, ALLOCATED, DOWN, with +DRAIN).
std::string render_scontrol_node(const wire::NodeView& n);

// A node's state as Slurm names it: the base state (idle, mixed, allocated, down) by the
// cores in use, drained as a flag on it, a down node not responding.
struct SlurmNodeState {
  std::string base;
  bool drain = false;
  bool not_responding = false;
};
SlurmNodeState slurm_node_state(const wire::NodeView& n);

// Limits Fairway has no notion of (node counts, memory caps, groups) read UNLIMITED or
// ALL, as Slurm writes them when they are not set.
std::string render_scontrol_partition(const wire::PartitionView& p);

}  // namespace fairway::cli
