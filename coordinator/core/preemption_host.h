// What the preemption collaborators (owner_preemption.h, maintenance_preemption.h) may ask
// of the scheduler, which owns the jobs: find one, start, requeue or end it.
#pragma once

#include "coordinator/core/job_record.h"
#include "shared/base/result.h"

namespace fairway {

// The scheduler's small interface to them, so that each can be tested alone with a fake.
class PreemptionHost {
 public:
  // The job's record, nullptr when the scheduler holds none.
  virtual JobRecord* find(JobId id) = 0;
  // A running job back to the queue (Scheduler::requeue).
  virtual Status requeue(JobId id, Time now) = 0;
  // A running job ends as `final_state` (Scheduler::finish).
  virtual Status finish(JobId id, JobState final_state, Time now) = 0;
  // A waiting job starts on `alloc`.
  virtual void start(JobRecord& j, Allocation alloc, Time now) = 0;

 protected:
  ~PreemptionHost() = default;
};

}  // namespace fairway
