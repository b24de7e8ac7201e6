// CoordinatorService's side of the job store: a job's stored request and the rows it writes
// for jobs and their steps (the turn's transaction is TurnTransaction's, the read-only probe
// StoreProbe's; the steps themselves are the client API's, booked per job in its StepBook).
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

// ---- Persistence ------------------------------------------------------------------------

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
  // What queries read of it from now on is its view: FinishedJobs keeps that.
  FinishedJob& ended = finished_.keep(id);
  if (rec != nullptr) ended.view = job_view(*rec, t, *scheduler_);
  tracking_.erase(id.value());  // `t` with it
  notices_.about(id, kMailEnd);
  scheduler_->forget(id);
  finished_.ended(id);
  finished_.trim();
}

void CoordinatorService::persist_step(const StoredStep& step) {
  // Steps are accounting: with the store read-only the job and its step go on unrecorded.
  if (read_only()) return;
  if (!ensure_txn()) return;
  (void)write(store_->put_step(step), "put_step", step.job);
}

}  // namespace fairway::daemon
