// Whether the job store takes writes (read-only mode: why not, for users), and while it
// does not, a small committed write every few seconds to learn when it does again.
// Not thread-safe: the daemon's one event-loop thread owns it.
#pragma once

#include <string>

#include "coordinator/daemon/job_store.h"
#include "shared/base/time.h"

namespace fairway::daemon {

class StoreProbe {
 public:
  static constexpr Duration kInterval = Duration::seconds(5);  // between read-only retries

  // `store` is the service's and outlives this. `read_only_because`: empty when the store
  // takes writes; the first probe is due kInterval after `now`.
  StoreProbe(JobStore& store, std::string read_only_because, Time now)
      : store_(store), why_(std::move(read_only_because)), next_probe_(now + kInterval) {}

  bool read_only() const { return !why_.empty(); }
  // Why the store cannot be written; empty when it can.
  const std::string& why() const { return why_; }
  // Read-only, and a probe write just succeeded: the daemon reopens the service normally.
  bool writable_again() const { return writable_again_; }
  // Read-only: once kInterval has passed since the last probe, a small write, committed
  // (or rolled back), tells whether the store takes writes again.
  void probe(Time now);

 private:
  JobStore& store_;
  std::string why_;
  bool writable_again_ = false;
  Time next_probe_;
};

}  // namespace fairway::daemon
