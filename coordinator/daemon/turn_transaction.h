// The event-loop turn's one store transaction: opened by the turn's first write, committed
// at its end before any reply leaves, and fail-stop once a write, the begin or the commit fails.
// Not thread-safe: the daemon's one event-loop thread owns it.
#pragma once

#include <string_view>

#include "coordinator/daemon/job_store.h"
#include "coordinator/daemon/service_counters.h"
#include "shared/base/ids.h"
#include "shared/base/result.h"

namespace fairway::daemon {

class TurnTransaction {
 public:
  // `store` and `counters` are the service's and outlive this; store_errors and
  // commit_seconds are counted there.
  TurnTransaction(JobStore& store, ServiceCounters& counters) : store_(store), counters_(counters) {}

  // Opens the turn's transaction on first use. False when the turn cannot write: the begin
  // failed (which fails the turn like a failed write: there is nothing to commit, and the
  // turn must still stop, not answer) or a write failed earlier in the turn.
  bool open();
  // A write's result (`what`, `id`: for the log). A failed one fails the turn: memory
  // already holds what it was to record, so the turn must not commit without it.
  bool write(const Status& st, std::string_view what, JobId id);
  // Fails the turn without a write: memory holds what the store cannot be made to (a row
  // that could not be read back). The caller has logged why.
  void fail() { turn_failed_ = true; }
  // Ends the turn: commits what it wrote, if anything. False when the commit or anything
  // before it failed: the store is rolled back and the service is stopped for good
  // (stopped()); nothing of the turn may be sent.
  bool commit();
  // Ok until a turn failed; then why, for good (fail-stop: the daemon exits and recovers
  // from the store).
  const Status& stopped() const { return stopped_; }

 private:
  JobStore& store_;
  ServiceCounters& counters_;
  bool open_ = false;
  bool turn_failed_ = false;
  Status stopped_ = ok_status();
};

}  // namespace fairway::daemon
