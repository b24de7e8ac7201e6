// Finished jobs' retention: the newest ones' views kept in memory for `queue --all`, and
// the store's finished rows purged hourly, in bounded batches, once keep_finished has passed.
// Not thread-safe: the daemon's one event-loop thread owns it.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>

#include "coordinator/core/scheduler.h"
#include "coordinator/daemon/job_store.h"
#include "coordinator/daemon/job_tracking.h"
#include "coordinator/daemon/turn_transaction.h"
#include "shared/config/config.h"

namespace fairway::daemon {

// Finished jobs one turn's purge deletes at most (keep_finished), and kept runs of purged
// jobs it forgets at most.
inline constexpr std::int64_t kPurgeBatch = 2000;
// How long a finished run counts for fair-share (config.fairshare's window, else twenty
// half-lives of decay; at least the longest allocation period): a purged job's run is kept
// that long after it ended.
Duration usage_horizon(const Config& config);

class FinishedJobs {
 public:
  explicit FinishedJobs(const Config& config)
      : keep_finished_(config.coordinator.keep_finished), usage_horizon_(usage_horizon(config)) {}

  // Terminal jobs (and ended arrays) whose views are in memory, oldest first: recovery
  // fills it, a restored job that ends on adoption joins it, queries read it.
  std::deque<std::uint64_t>& order() { return order_; }
  const std::deque<std::uint64_t>& order() const { return order_; }
  // A job (or an array) ended: its view ages out with the others'.
  void ended(JobId id) { order_.push_back(id.value()); }
  // Forgets the oldest views beyond kFinishedViewsKept from `tracking`.
  void trim(std::unordered_map<std::uint64_t, JobTracking>& tracking);

  // Drops finished jobs that ended before keep_finished from the store, into `txn`: hourly,
  // each call at most kPurgeBatch of them, and again on the next call while a batch was
  // full. A purged run is kept for fair-share (usage_horizon) and forgotten past it.
  // `scheduler` prices the runs (its nodes, its partitions' default memory). The caller
  // calls it only when the store takes writes.
  void purge_expired(Time now, JobStore& store, TurnTransaction& txn, const Scheduler& scheduler);

 private:
  Duration keep_finished_;
  Duration usage_horizon_;
  std::deque<std::uint64_t> order_;
  std::optional<Time> last_purge_;  // when the last complete purge ran
};

}  // namespace fairway::daemon
