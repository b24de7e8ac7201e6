// The one-coordinator-per-state-directory rule: an exclusive lock on STATE_DIR/coordinator.lock,
// held for the process's life, that names its holder (pid and host) to whoever is refused.
// Two coordinators on one store would each start the same pending jobs. Not thread-safe.
#pragma once

#include <string>

#include "shared/base/result.h"

namespace fairway::daemon {

class StateDirLock {
 public:
  // Takes the lock or says who holds it ("state directory /x is in use by
  // fairway-coordinator pid 1234 on host h"). The directory must exist.
  static Result<StateDirLock> acquire(const std::string& state_dir);

  StateDirLock(StateDirLock&& o) noexcept;
  StateDirLock& operator=(StateDirLock&& o) noexcept;
  StateDirLock(const StateDirLock&) = delete;
  StateDirLock& operator=(const StateDirLock&) = delete;
  ~StateDirLock();

 private:
  explicit StateDirLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// Refuses to take over an ipc:// endpoint whose socket file a live process still serves
// (binding would silently steal it); removes a stale file a crash left. Other schemes: ok.
Status claim_ipc_endpoint(const std::string& endpoint);

}  // namespace fairway::daemon
