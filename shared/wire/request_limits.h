// How many entries each list of a client request may hold: what means something for it,
// so that a request naming more is refused while decoding, before any work.
#pragma once

#include <cstddef>

#include "shared/model/job_state.h"

namespace fairway::wire {

// A state filter: each state once (a million-entry one cost the loop 0.3 s a request).
inline constexpr std::size_t kMaxStatesPerFilter = static_cast<std::size_t>(kLastJobState) + 1;
// Job ids (squeue -j, scancel, scontrol update, array tasks); the CLI sends 5000 a request.
inline constexpr std::size_t kMaxIdsPerRequest = 10000;
// Node, partition and reservation names in a query or control, and a job's node lists.
inline constexpr std::size_t kMaxNamesPerRequest = 10000;
// Submissions in one SubmitBatch.
inline constexpr std::size_t kMaxSubmitsPerBatch = 10000;

}  // namespace fairway::wire
