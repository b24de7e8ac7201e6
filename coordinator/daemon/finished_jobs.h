// Finished jobs' retention: what queries read of the newest ones kept in memory (their
// views, for `queue --all`), and the store's finished rows purged hourly, in bounded
// batches, once keep_finished has passed.
// Not thread-safe: the daemon's one event-loop thread owns it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>

#include "coordinator/core/scheduler.h"
#include "coordinator/daemon/job_store.h"
#include "coordinator/daemon/turn_transaction.h"
#include "shared/config/config.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

// Finished jobs whose views stay in memory for `queue --all`; older ones live in the store.
inline constexpr std::size_t kFinishedViewsKept = 100000;
// Finished jobs one turn's purge deletes at most (keep_finished), and kept runs of purged
// jobs it forgets at most.
inline constexpr std::int64_t kPurgeBatch = 2000;
// How long a finished run counts for fair-share (config.fairshare's window, else twenty
// half-lives of decay; at least the longest allocation period): a purged job's run is kept
// that long after it ended.
Duration usage_horizon(const Config& config);

// What the daemon keeps of an ended job (its JobTracking is gone with it).
struct FinishedJob {
  // Rendered as it ended (job_view); none for a job array's own entry, or a job the core
  // had already forgotten.
  std::optional<wire::JobView> view;
  bool array = false;  // a job array's own entry: a query naming it names its tasks
};

class FinishedJobs {
 public:
  explicit FinishedJobs(const Config& config)
      : keep_finished_(config.coordinator.keep_finished), usage_horizon_(usage_horizon(config)) {}

  // A job (or an array) ended: it ages out with the others, oldest first. Recovery fills
  // it too; a restored job that ends on adoption joins it.
  void ended(JobId id) { order_.push_back(id.value()); }
  // What is kept of ended job `id` (empty when new), until it ages out: ended(id) gives it
  // its place in the order.
  FinishedJob& keep(JobId id) { return kept_[id.value()]; }
  // Forgets the oldest beyond kFinishedViewsKept.
  void trim();

  // What is kept of `id`, or null (it has not ended, or aged out).
  const FinishedJob* find(JobId id) const;
  // The ended jobs, oldest first (`queue --all`), and what is kept of each, by id.
  const std::deque<std::uint64_t>& order() const { return order_; }
  const std::unordered_map<std::uint64_t, FinishedJob>& kept() const { return kept_; }

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
  std::unordered_map<std::uint64_t, FinishedJob> kept_;
  std::optional<Time> last_purge_;  // when the last complete purge ran
};

}  // namespace fairway::daemon
