#include "coordinator/daemon/turn_transaction.h"

#include <chrono>
#include <string>

#include "shared/base/log.h"

namespace fairway::daemon {

bool TurnTransaction::open() {
  if (open_) return !turn_failed_;
  auto st = store_.begin();
  if (!st) {
    ++counters_.store_errors;
    log_event(LogLevel::kError, "store_begin_failed", {{"error", st.error().message}});
    // No transaction, so nothing to commit: the turn must still stop, not answer.
    turn_failed_ = true;
    return false;
  }
  open_ = true;
  return true;
}

bool TurnTransaction::write(const Status& st, std::string_view what, JobId id) {
  if (st) return true;
  log_event(LogLevel::kError, "write_failed",
            {{"job", std::to_string(id.value())}, {"op", std::string(what)}, {"error", st.error().message}});
  // Memory already holds what the write was to record: the turn must not commit without it.
  turn_failed_ = true;
  return false;
}

bool TurnTransaction::commit() {
  if (open_ || turn_failed_) {
    open_ = false;
    const auto began = std::chrono::steady_clock::now();
    Status st =
        turn_failed_ ? make_error(ErrorCode::kIo, "a write failed earlier in the turn") : store_.commit();
    if (st) {
      counters_.commit_seconds.observe(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
    }
    if (!st) {
      store_.rollback();
      ++counters_.store_errors;
      // Fail-stop, as LevelDB treats a background error: memory now holds changes the store
      // does not (finished jobs forgotten, cancels applied, submit ids handed out), and
      // undoing them piecemeal has proved wrong. Nothing of this turn was acknowledged, so
      // nothing is sent; the daemon exits and recovery rebuilds memory from the store.
      log_event(LogLevel::kError, "store_commit_failed_fail_stop", {{"error", st.error().message}});
      stopped_ = make_error(ErrorCode::kIo, "the job store could not commit: " + st.error().message);
      turn_failed_ = false;
      return false;
    }
  }
  turn_failed_ = false;
  return true;
}

}  // namespace fairway::daemon
