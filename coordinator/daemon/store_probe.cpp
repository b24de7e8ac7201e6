#include "coordinator/daemon/store_probe.h"

#include "shared/base/log.h"

namespace fairway::daemon {

void StoreProbe::probe(Time now) {
  if (now < next_probe_) return;
  next_probe_ = now + kInterval;
  Status st = store_.begin();
  if (st) st = store_.set_meta("write_probe", std::to_string(now.seconds()));
  if (st) st = store_.commit();
  if (!st) {
    if (store_.in_transaction()) store_.rollback();
    log_event(LogLevel::kWarning, "store_still_read_only", {{"error", st.error().message}});
    return;
  }
  writable_again_ = true;
  log_event(LogLevel::kInfo, "store_writable_again", {{"was", why_}});
}

}  // namespace fairway::daemon
