// The Scheduler's part in maintenance reservations: at a window's start the killable jobs
// on its nodes are requeued (Titan, seed 000: killed, and requeued after the outage).
#include <cassert>

#include "coordinator/core/scheduler.h"

namespace fairway {

void Scheduler::preempt_for_maintenance(Time now, PassResult& result) {
  for (JobId id : maintenance_.due_for_preemption(cluster_, config_, running_, now)) {
    const JobRecord* j = find(id);
    JobPreemption p{id, "maintenance on its nodes begins", j->start_time, j->allocation};
    const Status st = requeue(id, now);
    assert(st.has_value() && "a running job can always be requeued");
    (void)st;
    find(id)->reason = p.reason;
    result.preempted.push_back(std::move(p));
  }
}

}  // namespace fairway
