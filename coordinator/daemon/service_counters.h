// What the coordinator counts as it runs (frames, refusals, passes, commits), for `fairway
// diag` and the metrics endpoint. Plain data owned by the service's one thread.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "coordinator/daemon/duration_stats.h"
#include "shared/base/time.h"

namespace fairway::daemon {

struct ServiceCounters {
  std::uint64_t submitted = 0, refused = 0, started = 0, finished = 0, passes = 0;
  std::uint64_t bad_frames = 0;       // undecodable or unexpected frames, never fatal
  std::uint64_t unauthenticated = 0;  // client requests refused for want of proof of who asks
  std::uint64_t impostor_frames = 0;  // agent frames refused: another node's name, a replaced connection
  std::uint64_t store_errors = 0;
  std::uint64_t preempted = 0;     // victims chosen for higher-tier jobs
  std::uint64_t rate_limited = 0;  // requests and submissions refused by the rate limit
  // What the passes did (`fairway diag`): waiting jobs looked at, jobs started, reservations
  // made, in all passes and in the last one.
  std::uint64_t considered = 0, pass_started = 0, reservations = 0;
  std::uint64_t backfill_started = 0;  // of pass_started: ahead of a higher-priority pending job
  std::uint64_t last_considered = 0, last_started = 0, last_reservations = 0;
  DurationStats pass_seconds;    // the core's schedule() alone
  DurationStats commit_seconds;  // each store transaction's COMMIT
  // Decoded frames by wire::MessageType, both channels (the AuthenticatedRequest wrapper
  // and what it carries each count).
  std::array<std::uint64_t, 64> messages{};
  // sdiag's: since when the counts run (the coordinator's start), when the last pass ran,
  // and how jobs ended (any way in, queued or running): completed, cancelled, or failed
  // (failed, timeout, out of memory, node failure).
  Time started_at;
  std::optional<Time> last_pass_at;
  std::uint64_t ended_completed = 0, ended_cancelled = 0, ended_failed = 0;
};

}  // namespace fairway::daemon
