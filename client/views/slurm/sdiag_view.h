// sdiag's layout (Slurm 22.05) over the coordinator's metrics, for tools that parse it
// (monitoring exporters read its job counts and scheduling cycle times). Pure.
#pragma once

#include <cstdint>
#include <string>

#include "shared/wire/messages.h"

namespace fairway::cli {

// What sdiag prints, from `reply` (fairway_* metrics) and the latency of 1000 clock reads
// here, as sdiag measures its own. What Fairway has no notion of (agent threads, the
// accounting daemon's queue, RPC times) reads 0; its messages by type stand for Slurm's
// RPCs by type, counted, with no times.
std::string render_sdiag(const wire::MetricsReply& reply, std::int64_t clock_latency_us);

// Microseconds 1000 calls to gettimeofday(2) take (sdiag's "Latency" line).
std::int64_t gettimeofday_latency_us();

}  // namespace fairway::cli
