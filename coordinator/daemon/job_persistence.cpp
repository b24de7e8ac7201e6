// CoordinatorService's side of the job store: the turn's transaction, the rows it writes
// for jobs, and the probe of a store that could not be written (read-only mode).
#include "coordinator/daemon/coordinator_service.h"

#include "coordinator/daemon/job_nodes.h"
#include "coordinator/daemon/job_translation.h"
#include "coordinator/daemon/job_views.h"
#include "coordinator/daemon/member_launches.h"
#include "shared/base/log.h"
#include "shared/base/try.h"

namespace fairway::daemon {

Result<wire::SubmitRequest> CoordinatorService::stored_request(JobId id) const {
  FAIRWAY_TRY_ASSIGN(record, store_->load_request(id));
  auto decoded = decode_stored_request(record);
  if (!decoded) return std::unexpected(decoded.error().with_context("job " + std::to_string(id.value())));
  return decoded;
}

// Read-only: a small write, committed, tells whether the store takes writes again.
void CoordinatorService::probe_store(Time now) {
  if (now < next_probe_) return;
  next_probe_ = now + kStoreProbeInterval;
  Status st = store_->begin();
  if (st) st = store_->set_meta("write_probe", std::to_string(now.seconds()));
  if (st) st = store_->commit();
  if (!st) {
    if (store_->in_transaction()) store_->rollback();
    log_event(LogLevel::kWarning, "store_still_read_only", {{"error", st.error().message}});
    return;
  }
  writable_again_ = true;
  log_event(LogLevel::kInfo, "store_writable_again", {{"was", read_only_}});
}

// ---- Persistence ------------------------------------------------------------------------

StoredUsageRun CoordinatorService::usage_run_of(const StoredJob& s, const std::string& account,
                                                const std::string& user, const std::string& reservation,
                                                const ResourceRequest& resources) const {
  return daemon::usage_run_of(scheduler_->cluster(), s, account, user, reservation, resources);
}

bool CoordinatorService::write(const Status& st, std::string_view what, JobId id) {
  if (st) return true;
  log_event(LogLevel::kError, "write_failed",
            {{"job", id_str(id)}, {"op", std::string(what)}, {"error", st.error().message}});
  // Memory already holds what the write was to record: the turn must not commit without it.
  txn_failed_ = true;
  return false;
}

// False when the turn cannot write: read-only (by design: nothing that must be stored is
// done then) or the begin failed, which fails the turn like a failed write.
bool CoordinatorService::ensure_txn() {
  if (!read_only_.empty()) return false;
  if (in_txn_) return !txn_failed_;
  auto st = store_->begin();
  if (!st) {
    ++counters_.store_errors;
    log_event(LogLevel::kError, "store_begin_failed", {{"error", st.error().message}});
    // No transaction, so nothing to commit: the turn must still stop, not answer.
    txn_failed_ = true;
    return false;
  }
  in_txn_ = true;
  return true;
}

void CoordinatorService::persist(JobId id) {
  if (!ensure_txn()) return;
  StoredJob row;
  row.id = id;
  if (const JobRecord* rec = scheduler_->job(id)) row = to_row(*rec, scheduler_->cluster());
  (void)write(store_->update_job(row), "update", id);
}

void CoordinatorService::mark_terminal(JobId id, Time now) {
  const JobRecord* rec = scheduler_->job(id);
  JobTracking& t = tracking_[id.value()];
  if (rec != nullptr) {
    if (rec->state == JobState::kCompleted)
      ++counters_.ended_completed;
    else if (rec->state == JobState::kCancelled)
      ++counters_.ended_cancelled;
    else
      ++counters_.ended_failed;
  }
  ServiceContext ctx = context();
  release_members(ctx, t, id, member_nodes(*scheduler_, id), now);
  persist(id);
  if (rec != nullptr) t.final_view = job_view(*rec, t, *scheduler_);
  mail_about(id, kMailEnd);
  scheduler_->forget(id);
  finished_order_.push_back(id.value());
  trim_finished();
}

void CoordinatorService::trim_finished() {
  daemon::trim_finished(tracking_, finished_order_);
}

}  // namespace fairway::daemon
