// CoordinatorService's rows of jobs' steps: the steps themselves (srun) are the client
// API's (client_steps.cpp), booked per job in its StepBook; the store gets their rows here.
#include "coordinator/daemon/coordinator_service.h"

namespace fairway::daemon {

void CoordinatorService::persist_step(const StoredStep& step) {
  // Steps are accounting: with the store read-only the job and its step go on unrecorded.
  if (read_only()) return;
  if (!ensure_txn()) return;
  (void)write(store_->put_step(step), "put_step", step.job);
}

}  // namespace fairway::daemon
