// A node's share of a job step: forks the step's local tasks (stdin of rank 0 from the
// client, stdout/stderr piped), streams their output and exits to the client over its
// connection, and applies the client's signals. Runs as the job's user in the job's
// cgroup; single-threaded, so that forking the tasks is safe.
#pragma once

#include "agent/step/relay_plan.h"

namespace fairway::agent {

// Connects to the client, runs the tasks to their end and returns the relay's exit code:
// 0 when every task was reported, 1 when the client could not be reached or went away.
int run_step_relay(const RelayPlan& plan);

// fairway-step --hold: the process that holds a job's cgroup on a node where no batch
// script runs (Slurm's extern step); it sleeps until signalled.
[[noreturn]] void hold_allocation();

}  // namespace fairway::agent
