// The Slurm release whose commands and layouts the client follows (and was checked
// against): the version Slurm's views print and `sbatch --version` answers.
#pragma once

namespace fairway::cli {

inline constexpr const char* kSlurmInterfaceVersion = "22.05.8";

}  // namespace fairway::cli
