// The job state machine: the states a job passes through and the only legal moves
// between them. Every state change in the system goes through transition().
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "shared/base/result.h"

namespace fairway {

enum class JobState : std::uint8_t {
  kPending,  // eligible, waiting for resources or priority
  kHeld,     // held by the user or an admin; never considered until released
  kBlocked,  // held back by a policy limit (eligible-job caps, MAXPS, allocation)
  kRunning,
  kCompleting,  // processes ended, node cleanup under way
  kCompleted,   // exit code 0
  kFailed,      // non-zero exit or launch failure
  kCancelled,
  kTimeout,      // killed at its walltime
  kPreempted,    // stopped for a higher-priority job and not requeued
  kRequeued,     // stopped (preemption, node failure, admin) and going back to the queue
  kNodeFail,     // its node died and it was not requeued
  kOutOfMemory,  // the kernel killed it for exceeding its memory (Slurm's OUT_OF_MEMORY)
};

// The last state, for loops over all of them.
inline constexpr JobState kLastJobState = JobState::kOutOfMemory;

std::string_view to_string(JobState s);
std::optional<JobState> job_state_from_string(std::string_view s);

bool is_terminal(JobState s);
bool is_waiting(JobState s);  // pending, held or blocked: in the queue, not started

bool is_legal_transition(JobState from, JobState to);

// Ok when the move is legal; otherwise an error naming both states.
Status check_transition(JobState from, JobState to);

}  // namespace fairway
