// A node's PMIx server for the tasks of a step started with srun --mpi=pmix (Open MPI's
// direct launch), through the OpenPMIx server library; its fences go through srun as PMI-2's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "agent/step/step_pmi.h"
#include "shared/base/result.h"

namespace fairway::agent {

// What every node's server registers: the same job-level data everywhere.
struct PmixStep {
  std::string nspace;                      // "slurm.pmix.JOB.STEP", as Slurm names it
  std::vector<std::int32_t> node_of_rank;  // the step's layout, by global rank
  std::vector<std::int32_t> local_ranks;   // this node's tasks' global ranks, by local id
  std::vector<std::string> nodes;          // the step's nodes, by index
  std::int32_t node_index = 0;             // this node's
};

// The server, initialised with its rendezvous in a directory of its own (0700, removed when
// it ends), the step registered and each local task's environment prepared. An error when
// the library refuses, or when this relay was built without OpenPMIx (libpmix-dev).
// One per process: the library is process-wide.
Result<std::unique_ptr<StepPmi>> open_pmix_server(const PmixStep& step);

}  // namespace fairway::agent
