// Slurm's compressed count lists, the companion of a node list: {2,2,2,1} -> "2(x3),1", as
// in SLURM_TASKS_PER_NODE and SLURM_JOB_CPUS_PER_NODE. Pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fairway {

std::string repeat_counts(const std::vector<std::int32_t>& counts);

}  // namespace fairway
