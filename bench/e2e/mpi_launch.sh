#!/usr/bin/env bash
# The MPI launch tests 10 times in a row each (CI runs them twice): Open MPI's mpirun inside
# a 2-node job, MPICH's Hydra mpiexec (detected and -launcher slurm) and MPICH by srun
# --mpi=pmi2, on two loopback agents.
# Each job's time from sbatch to its end is printed by the test ("sbatch to end").
#   bench/e2e/mpi_launch.sh [REPEAT]     (after scripts/build; needs root, as the tests)
set -euo pipefail
cd "$(dirname "$0")/../.."
FAIRWAY_MPI_REPEAT=${1:-10} exec build/tests/integration_test --gtest_filter='MpiLaunch.*'
