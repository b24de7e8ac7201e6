// fairway: the user's command line to the coordinator (docs/architecture.md section 1); the whole of
// it lives in entry/fairway_command.cpp, which the Slurm front-end shares.
#include <iostream>
#include <string>
#include <vector>

#include "coordinator/cli/entry/fairway_command.h"

int main(int argc, char** argv) {
  const fairway::cli::Output io{std::cout, std::cerr};
  return fairway::cli::run_fairway(std::vector<std::string>(argv + 1, argv + argc), io);
}
