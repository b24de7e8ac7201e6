// The scheduler's view of one job: the user's spec plus everything decided about it
// (state, partition, priority, why it waits, where it runs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "coordinator/core/fair_share_ledger.h"
#include "coordinator/core/pending_reason.h"
#include "coordinator/core/priority.h"
#include "coordinator/core/resource_amount.h"
#include "coordinator/core/runtime_predictor.h"
#include "shared/base/ids.h"
#include "shared/base/time.h"
#include "shared/model/allocation.h"
#include "shared/model/job_spec.h"
#include "shared/model/job_state.h"

namespace fairway {

// A running job chosen as a victim: it keeps its cores until its processes are confirmed
// stopped (Scheduler::stop_preempted), so nothing else is placed on them before that.
struct PreemptionMark {
  JobId by;  // the higher-tier job it makes room for
  PartitionIndex by_partition;
  Time at;              // when the pass chose it
  Time stop_by;         // at + its partition's preempt_grace: SIGKILL by then
  bool requeue = true;  // back to the queue; false: ends as preempted
};

// What was asked of a running job that decides how its end is read (job_lifecycle.h):
// set when asked, read when its head node reports the end.
struct StopIntent {
  bool cancel = false;       // scancel: a failed or killed end is a cancel
  std::string cancelled_by;  // the reason recorded once it has ended ("cancelled by ...")
  bool requeue = false;      // scontrol requeue: back to the queue once its processes stop
  // An allocation its client ended (salloc's command): that command's exit code and signal,
  // which decide how it ended instead of the kill that ends its holder.
  std::optional<std::pair<std::int32_t, std::int32_t>> allocation_outcome;
};

// How its last run ended, as its head node reported it (or, for an allocation its client
// ended, its command's code and signal): what views, the store and mails read. Kept when
// it goes back to the queue, until the next run's report replaces it.
struct JobOutcome {
  std::optional<std::int32_t> exit_code, signal;
  std::optional<std::int64_t> peak_memory_bytes, cpu_time_ms;  // from its cgroup
};

struct JobRecord {
  JobSpec spec;
  JobState state = JobState::kPending;
  PartitionIndex partition;
  double partition_priority = 0;
  double qos_priority = 0;
  std::optional<double> priority_cap;
  std::optional<Duration> queue_target_time;  // its QOS's, when set
  AssociationIndex association = 0;
  Time eligible_since;  // age counts from here: submit, or release from hold
  // priority.age_from = "idle": entry into the idle (not blocked) queue; unset while blocked.
  std::optional<Time> idle_since;
  std::optional<std::size_t> node_bin;      // index into Config::node_bins
  std::optional<std::size_t> overuse_tier;  // index into Config::allocation_overuse, per pass
  std::int64_t bypass_count = 0;            // lower-priority jobs started while this one waited
  // Its --begin or --dependency held it out of the last pass: age restarts once it may run.
  bool deferred = false;
  // -w/-x/-C: one flag per node of the cluster (node_constraints.h); unset: any node of
  // its partition. Rebuilt when nodes register after it was made.
  std::optional<std::vector<char>> allowed_nodes;

  // While waiting: the last pass's verdict.
  PriorityBreakdown priority;
  PendingExplanation why;
  std::optional<Time> reserved_start;  // the reservation the last pass gave it
  std::optional<Time> reserved_at;     // when that pass ran

  // Once started.
  Time start_time;
  Time end_time;
  Allocation allocation;
  double billing_rate = 0;  // fair-share units per second while running
  std::vector<std::pair<PartitionIndex, ResourceAmount>> partition_amounts;

  // Set while its processes are being stopped for a higher-tier job.
  std::optional<PreemptionMark> preempting;
  // As the owner: victims chosen for it that still hold their cores. It picks no more
  // while any remain.
  std::int32_t victims_stopping = 0;
  std::int32_t preempt_count = 0;  // runs cut short for higher tiers
  // Times it went back to the queue after starting (asked for, preempted, its node lost,
  // maintenance): the one count that views, the store and SLURM_RESTART_COUNT read.
  std::int32_t requeue_count = 0;
  // Why it ended or last went back to the queue, in words for users (a maintenance, a lost
  // node, who cancelled it): the one copy that views, the store and mails read.
  std::string reason;
  StopIntent stop;
  JobOutcome outcome;

  std::size_t slot = 0;  // position in the scheduler's pending or running list
  // Its place in the current pass's priority order (0 first): tells a backfill start (a
  // job started while one ranked above it still waits) from one in order.
  std::uint32_t pass_rank = 0;

  // scheduler.runtime_prediction: how long backfill expects it to run (never past its
  // limit). Made for a waiting job at each pass, kept once it starts. Unset: its limit.
  std::optional<Duration> predicted_runtime;

  // What placing it takes from the partition's free pool when more than it asks (whole
  // sockets, fenced GPU sockets; see expected_footprint). Unset: what it asks.
  std::optional<ResourceAmount> footprint;

  ResourceAmount need() const {
    if (footprint) return *footprint;
    return requested_amount(spec.resources);
  }
  // When backfill expects the job to end: its limit, or just after now if it overran.
  Time estimated_end(Time now) const {
    Time e = start_time + spec.time_limit;
    if (preempting && preempting->stop_by < e) e = preempting->stop_by;
    return e > now ? e : now + Duration::seconds(1);
  }
  // What backfill plans a waiting job's run with: its prediction, else its limit.
  Duration planned_runtime() const {
    return predicted_runtime && *predicted_runtime < spec.time_limit ? *predicted_runtime : spec.time_limit;
  }
  // When backfill expects a running job to end: at its prediction, or, once it has
  // outlived that, at the prediction's next step (RuntimePredictor::extend); never after
  // estimated_end, which the kill follows.
  Time planned_end(Time now) const {
    const Time by_limit = estimated_end(now);
    if (!predicted_runtime) return by_limit;
    Time e = start_time + *predicted_runtime;
    if (e <= now) e = start_time + RuntimePredictor::extend(now - start_time, spec.time_limit);
    if (e <= now) e = now + Duration::seconds(1);
    return e < by_limit ? e : by_limit;
  }
};

}  // namespace fairway
