// Where the agent publishes its coordinator lease for the jobs' keepers: the
// CLOCK_MONOTONIC second past which, with no renewal, jobs must stop (self-fencing that
// holds even when the agent itself is dead). Not thread-safe: one owner (the agent).
#pragma once

#include <string>

#include "shared/base/result.h"
#include "shared/base/time.h"

namespace fairway::agent {

std::string coordinator_lease_path(const std::string& spool_dir);

class CoordinatorLeaseFile {
 public:
  explicit CoordinatorLeaseFile(std::string spool_dir) : path_(coordinator_lease_path(spool_dir)) {}

  // Writes `deadline` (monotonic seconds) atomically when it moved on by a second or more
  // since the last write: a busy coordinator renews the lease with every frame.
  Status publish(Time deadline);

 private:
  std::string path_;
  Time published_ = Time::from_seconds(-1);
};

}  // namespace fairway::agent
