// What one scheduling pass tells its driver: the jobs it started, requeued, chose as
// victims or cancelled, and when to pass again with no event.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "coordinator/core/job_record.h"
#include "coordinator/core/project_reservations.h"
#include "shared/base/time.h"

namespace fairway {

struct JobStart {
  JobId id;
  // The reservation the job held at the pass before this one, if any: lets a driver
  // check that reserved jobs started no later than promised.
  std::optional<Time> reserved_start;
  std::optional<Time> reserved_at;
  // Started ahead of a higher-priority job that still waits: a backfill start.
  bool backfilled = false;
};

// A running job the pass took off its nodes and put back in the queue: the driver must
// kill its processes (the job is already pending again, its cores released).
struct JobCancellation {
  JobId id;
  std::string reason;
};

struct JobPreemption {
  JobId id;
  std::string reason;
  Time started;           // the run that was cut short
  Allocation allocation;  // where it ran: the processes to kill
};

// A running job the pass chose as a victim for a higher-tier job: the driver signals it
// (SIGTERM, `grace`, SIGKILL) and calls stop_preempted once its processes are gone. It
// keeps its cores until then.
struct PreemptionOrder {
  JobId victim;
  JobId by;
  std::string by_partition;
  Duration grace;
  bool requeue = true;  // false: it ends as preempted
};

struct PassResult {
  std::vector<JobStart> started;
  // Killable jobs requeued because a maintenance reservation on their nodes began. They
  // are requeued before anything starts in this pass.
  std::vector<JobPreemption> preempted;
  // Victims chosen for higher-tier jobs (owner partitions): still running, to be stopped.
  std::vector<PreemptionOrder> preempting;
  // Jobs the pass cancelled: their --dependency can never be met and they asked for
  // --kill-on-invalid-dep. Terminal on return; the driver records why.
  std::vector<JobCancellation> cancelled;
  // Project reservations this pass gave back (their pending jobs stay, ReservationDeleted).
  std::vector<ReservationCancellation> reservations_cancelled;
  std::size_t considered = 0;    // waiting jobs looked at (held ones included)
  std::size_t reservations = 0;  // jobs given a reservation
  // A limit that holds a job opens then with no start, end or arrival (MAXPS: what running
  // jobs owe shrinks as they run): an event-driven caller passes again at that time.
  std::optional<Time> recheck_at;
};

}  // namespace fairway
