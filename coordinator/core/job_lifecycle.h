// How a running job ends: events about it in, what the driver must do out. Pure: it
// decides, and the coordinator daemon carries out the effects in order (no I/O here).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "coordinator/core/job_record.h"
#include "shared/base/time.h"
#include "shared/model/job_state.h"

namespace fairway::lifecycle {

// ---- Events: what happened to a job ---------------------------------------------------

// Its head node reported its processes ended, in this state, with this outcome (kept on
// the record: JobRecord::outcome).
struct Reported {
  JobState state = JobState::kCompleted;
  JobOutcome outcome;
};
// A user cancelled it (scancel) while it runs; `by`: the reason to record ("cancelled by ...").
struct CancelAsked {
  std::string by;
};
// Its client ended the allocation (salloc's command exited with this code and signal).
struct AllocationEnded {
  std::int32_t exit_code = 0;
  std::int32_t signal = 0;
};
// A user asked it back to the queue (scontrol requeue) while it runs.
struct RequeueAsked {};
// Its node is given up (lost past its lease, no report after a restart); `why` for users.
struct NodeLost {
  std::string why;
};
// A running job read back from the store that the core could not take back (its cores
// are another restored job's: the store disagrees with itself). It ends as node_fail at
// once, outside the core, with no run shown (what it held is another's); nothing is
// stored or signalled: its row stays as found, for the next start to read again.
struct NotRestored {
  std::string why;
};
using JobEvent = std::variant<Reported, CancelAsked, AllocationEnded, RequeueAsked, NodeLost, NotRestored>;

// ---- Effects: what the driver does, in order; a failed one stops the rest -------------

// Tell every node of the job (SIGTERM, the agents' kill grace, then SIGKILL).
struct Signal {
  std::int32_t signal = 15;
};
// Record why it ended or went back to the queue (Scheduler::set_reason).
struct SetReason {
  std::string reason;
};
// Its run stops and it goes back to the queue (Scheduler::requeue); `lost`: not asked
// for (its node is gone), logged as a warning.
struct Requeue {
  std::string reason;
  bool lost = false;
};
// Its processes stopped for a higher tier: the core decides requeue or preempted end
// (Scheduler::stop_preempted).
struct StopPreempted {};
// It ends in `state` (Scheduler::finish); `reported`: its node's report ended it (counted
// as finished), else it was given up. Its outcome is already on the record.
struct Finish {
  JobState state = JobState::kFailed;
  bool reported = true;
};
// Store its row now.
struct Persist {};
// Mail its owner that it went back to the queue (--mail-type=REQUEUE).
struct MailRequeue {};
// It is over: store it, keep its final view, mail END, and let the core forget it.
struct Forget {};
using JobEffect =
    std::variant<Signal, SetReason, Requeue, StopPreempted, Finish, Persist, MailRequeue, Forget>;

// Applies `event` to a running job: records the stop intent (rec.stop) and a reported
// outcome (rec.outcome; an ended allocation's is its command's) on `rec` and
// returns what must happen. The job's state is not changed here: the effects that change
// it (Requeue, StopPreempted, Finish) go through the Scheduler, which keeps its lists
// (NotRestored, about a record the core does not hold, ends it here).
// An event about a job that is not running returns nothing.
std::vector<JobEffect> apply(JobRecord& rec, const JobEvent& event, Time now);

}  // namespace fairway::lifecycle

namespace fairway {
using lifecycle::JobEffect;
using lifecycle::JobEvent;
}  // namespace fairway
