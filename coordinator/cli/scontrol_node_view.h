// scontrol show node's Key=Value layout (Slurm 22.05), for the tools and people that read
// it: one block per node. Pure; thread-safe.
#pragma once

#include <string>

#include "shared/wire/messages.h"

namespace fairway::cli {

// What Fairway does not know of a node (its OS, load, boot time) reads as Slurm writes an
// unknown value; the state is Slurm's (IDLE, MIXED, ALLOCATED, DOWN, with +DRAIN).
std::string render_scontrol_node(const wire::NodeView& n);

}  // namespace fairway::cli
