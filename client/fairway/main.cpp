// fairway: the user's command line to the coordinator (docs/architecture.md section 1); the whole of
// it lives in fairway_command.cpp, which the Slurm front-end shares.
#include <iostream>
#include <string>
#include <vector>

#include "client/fairway/fairway_command.h"
#include "shared/base/standard_descriptors.h"

int main(int argc, char** argv) {
  // srun with its stdin closed (mpiexec -launcher slurm starts it so) must not take a
  // socket it opens for its own stdin.
  fairway::keep_standard_descriptors();
  const fairway::cli::Output io{std::cout, std::cerr};
  return fairway::cli::run_fairway(std::vector<std::string>(argv + 1, argv + argc), io);
}
