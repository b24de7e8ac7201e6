// The scheduling core's front door: the queue, the machine and fair-share, changed only
// through these calls, each taking `now`. The daemons and the simulator drive this same
// class. Not thread-safe: one owner thread. Pure: no I/O, clocks or randomness.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "coordinator/core/admission.h"
#include "coordinator/core/allocation_overuse.h"
#include "coordinator/core/array_book.h"
#include "coordinator/core/cluster_state.h"
#include "coordinator/core/fair_share_ledger.h"
#include "coordinator/core/job_dependencies.h"
#include "coordinator/core/job_lifecycle.h"
#include "coordinator/core/job_record.h"
#include "coordinator/core/maintenance_schedule.h"
#include "coordinator/core/maxps_limit.h"
#include "coordinator/core/open_job_counts.h"
#include "coordinator/core/owner_preemption.h"
#include "coordinator/core/pass_result.h"
#include "coordinator/core/project_reservations.h"
#include "coordinator/core/running_caps.h"
#include "shared/base/result.h"
#include "shared/config/config.h"

namespace fairway {

// Where the machine comes from: the config's [[nodes]] (the simulator, and daemons of
// clusters that declare their nodes), or agents registering (a cluster with no [[nodes]]).
enum class NodeSource { kConfig, kRegistration };

// What `fairway update job` changes; unset fields stay as they are.
struct JobChanges {
  std::optional<Duration> time_limit;
  std::optional<std::string> partition, qos, account, name, comment;
  std::optional<std::int32_t> nice;
  std::optional<Time> begin;
};

class Scheduler {
 public:
  // Builds the machine from config.nodes and config.partitions. With kRegistration the
  // config may declare no nodes; add_node() brings them in as their agents register.
  static Result<std::unique_ptr<Scheduler>> create(const Config& config,
                                                   NodeSource source = NodeSource::kConfig);

  // A node whose agent registered and that the config does not declare: it joins every
  // partition that lists no nodes of its own. Error if the name exists or the config
  // declares nodes (then only declared names may register).
  Result<NodeIndex> add_node(NodeTopology topology);
  // A down node takes no new jobs; what its running jobs release is withheld until it is up.
  void set_node_up(NodeIndex n, bool up);

  // Accepts a job or says exactly why not (unknown partition, over the time limit, larger
  // than the partition can ever hold, duplicate id, not allowed in the partition or QOS,
  // ...). `groups`: the submitting user's Unix groups, for partitions' allow_groups.
  Status submit(JobSpec spec, Time now, std::span<const std::string> groups = {});
  // `fairway update job` (scontrol update job): a waiting job is checked again as a
  // submission would be (partition, QOS, limits) and keeps its id, age and hold; a running
  // one may change only its time limit, name and comment. A refused change leaves the job
  // exactly as it was. Moving it to another partition, QOS or account passes their access
  // rules again, with `owner_groups` the job's user's Unix groups.
  Status update(JobId id, const JobChanges& changes, std::span<const std::string> owner_groups = {});
  // A running job's processes ended: `final_state` is completed, failed or timeout.
  Status finish(JobId id, JobState final_state, Time now);
  Status cancel(JobId id, Time now);
  Status hold(JobId id);
  Status release(JobId id, Time now);
  // A running job goes back to the queue (its node failed, an admin asked): its cores are
  // released and it waits again, aging from `now`.
  Status requeue(JobId id, Time now);

  // The processes of a job being preempted (PassResult::preempting) are gone: it goes
  // back to the queue, or ends as preempted when it may not be requeued. Returns the state
  // it is in now (pending or preempted). A job that is not being preempted is an error.
  // OwnerPreemption::stop_victim decides; this lends it the jobs.
  Result<JobState> stop_preempted(JobId id, Time now);

  // After a coordinator restart: jobs accepted before it come back without the admission
  // checks (they passed them once, and their nodes may not have registered yet).
  // `requeue_count`: as stored (JobRecord::requeue_count).
  Status restore_waiting(JobSpec spec, Time eligible_since, std::int32_t requeue_count = 0);
  // ... and a job that was running, on the cores it holds (which must be free): of the
  // stored record, its spec, allocation, start_time and requeue_count; the rest is made
  // again as admission and the start make it.
  Status restore_running(const JobRecord& stored);
  // Fair-share across a restart. Between begin_restore and end_restore, what restored
  // jobs ran is collected, not charged: restore_running's jobs from their start, and
  // finished jobs' runs given here (`cores`, memory and the types of its GPUs, since the nodes
  // they ran on may be gone). end_restore charges it all in time order, so decayed,
  // windowed and allocation-period usage come back as they were before the restart.
  void begin_restore();
  // The partition a job asking `spec.partition` goes to (its name, or the default, or the
  // interactive default); nullptr when no partition has that name.
  const PartitionConfig* partition_for(const JobSpec& spec) const {
    return admission::partition_for(config_, spec);
  }
  // The job's request with its partition's default_mem_per_cpu_mb when it asks no memory:
  // what admission gives it, and what a restart bills a finished run for.
  ResourceRequest with_default_memory(const JobSpec& spec) const {
    return admission::with_default_memory(config_, spec);
  }
  // A run in a project reservation (`reservation`) is charged only past the reservation's
  // end or cancellation: the reservation paid for it until then.
  void restore_finished_usage(const std::string& account, const std::string& user, std::int64_t cores,
                              const std::vector<std::string>& gpu_types, std::int64_t memory_mb, Time start,
                              Time end, const std::string& reservation = {});
  // With `now`, project reservations that began before it are charged again from their
  // start (restore_reservation_cancelled first, so a cancelled one stops where it did).
  void end_restore(std::optional<Time> now = std::nullopt);
  // A job that ended before the restart, for the dependencies of jobs that name it.
  void restore_outcome(JobId id, JobState final_state);
  // A run that ended on its own before the restart (user, run time, when it ended), in any
  // order: the history scheduler.runtime_prediction predicts from. Ignored when off.
  void restore_runtime(const std::string& user, Duration runtime, Time ended);
  // What runtime_prediction would plan a new job of `user` with `limit` to run.
  Duration predicted_runtime(const std::string& user, Duration limit) const;

  // Drops the record of a job in a terminal state (the simulator does this to keep
  // memory flat over millions of jobs; the daemon keeps records until archived).
  void forget(JobId id);

  // One pass: priorities, then the backfill engine. Started jobs are running on return.
  PassResult schedule(Time now);

  // A copy to plan on, with `settings` for scheduler.*: what-if passes change only it
  // (start_estimate.h). Without runtime_prediction it forgets the planned runtimes. O(jobs).
  std::unique_ptr<Scheduler> what_if(const SchedulerConfig& settings) const;
  // An id no job record holds (one above the highest), for a what-if job.
  JobId unused_id() const;

  const JobRecord* job(JobId id) const;
  // The driver's words for why a job ended or was requeued (JobRecord::reason), for what
  // only it knows: who cancelled it, what its node reported, its lost node. The core
  // writes its own (maintenance, an impossible dependency). Error for an unknown job.
  Status set_reason(JobId id, std::string reason);
  // A restored job's last outcome, as stored (JobRecord::outcome). Error for an unknown job.
  Status set_outcome(JobId id, const JobOutcome& outcome);
  // An event about a running job (job_lifecycle.h): records its stop intent and returns
  // what the driver must do, in order. Error for an unknown job.
  Result<std::vector<JobEffect>> on_event(JobId id, const JobEvent& event, Time now);

  // Job arrays (array_book.h). submit() takes a spec with `array` set as one array; each
  // pass makes jobs of as many of its tasks as could start now, plus
  // scheduler.array_task_reservations more to plan, within its %limit. Tasks then live as
  // jobs (waiting(), running(), job()) with spec.array_job set.
  const ArrayJob* array(JobId id) const { return arrays_.find(id); }
  const std::map<std::uint64_t, ArrayJob>& arrays() const { return arrays_.all(); }
  // The array, still waiting or running, whose task ids include `task`.
  const ArrayJob* array_holding(JobId task) const { return arrays_.holding(task); }
  // Makes task `index` a job now, to hold, cancel or change it alone (a held array's task
  // is made held), and returns its id; a task already made keeps its record.
  Result<JobId> split_array_task(JobId array, std::int32_t index);
  // The array's tasks that are jobs now and have not ended, in task order.
  std::vector<JobId> live_array_tasks(JobId array) const;
  // Arrays whose last task ended since the last call (ArrayJob::outcome says how).
  std::vector<ArrayJob> take_ended_arrays() { return arrays_.take_ended(); }
  std::span<JobRecord* const> waiting() const { return waiting_; }
  std::span<JobRecord* const> running() const { return running_; }
  const ClusterState& cluster() const { return cluster_; }
  const FairShareLedger& fair_share() const { return ledger_; }
  std::span<const ProjectReservationState> project_reservations() const { return reservations_.all(); }
  // After a restart: a project reservation the coordinator had cancelled stays cancelled.
  void restore_reservation_cancelled(const std::string& name, Time at);
  const Config& config() const { return config_; }

 private:
  explicit Scheduler(Config config);
  // For what_if only: the waiting and running lists still point into the source until
  // the copy re-points them.
  Scheduler(const Scheduler&) = default;
  Scheduler& operator=(const Scheduler&) = delete;
  Status init(NodeSource source);
  // A new or changed job through admission's checks (admission::admit), then queued.
  // `access_groups` unset: the access rules are not checked (an update that moves nothing).
  Status admit(JobSpec spec, Time now, std::optional<std::span<const std::string>> access_groups);
  // A job stored before a restart, through admission::restore, then queued.
  Status readmit(JobSpec spec, Time eligible_since);
  // What admission reads, borrowed from this scheduler for one call.
  AdmissionView admission_view(const LiveJobState& live) const;
  // Admission's decision becomes a waiting job (or array), eligible since `eligible_since`.
  void enter(AdmissionDecision&& d, Time eligible_since);
  void start_job(JobRecord& j, Allocation alloc, Time now);
  struct UsageChange {
    Time at;
    AssociationIndex association;
    double rate;  // + at a start, - at an end
  };
  std::optional<std::vector<UsageChange>> restored_usage_;  // set between begin/end_restore
  void remove_from(std::vector<JobRecord*>& list, JobRecord& j);
  // Sorts `ordered` into the pass's order: tier, priority, submit time, id (rank_order.h).
  void rank(std::vector<JobRecord*>& ordered) const;
  // Keeps waiting_ in the pass's order, ranked jobs first and then the rest, so that the
  // next pass finds its keys nearly sorted (sorting the queue was a sixth of a pass).
  void keep_rank_order(std::span<JobRecord* const> ranked, std::span<JobRecord* const> unranked);
  // A new waiting job (admitted, restored, or an array's task made now) joins the queue.
  JobRecord& queue(JobRecord&& rec);
  Status cancel_array(JobId id);
  Status hold_array(JobId id, bool hold, Time now);
  ArrayBook arrays_;
  JobRecord* find(JobId id);

  Config config_;
  ClusterState cluster_;
  FairShareLedger ledger_;
  RuntimePredictor runtimes_;  // scheduler.runtime_prediction's history
  NodeSource node_source_ = NodeSource::kConfig;
  MaxPsLimit maxps_;  // built once from config; per-pass sums are reset by begin_pass
  AllocationOveruse overuse_;
  MaintenanceSchedule maintenance_;   // config.reservations; project ones end early when cancelled
  ProjectReservations reservations_;  // their nodes are windows of maintenance_
  // Owner partitions (owner_preemption.h): tiers and the pass's victims. It and a
  // maintenance's preemption (maintenance_preemption.h) act on jobs through Host, the
  // scheduler's small interface to them (preemption_host.h).
  OwnerPreemption preemption_;
  class Host;
  RunningCaps running_caps_;  // per-pass counts reset by begin_pass
  std::vector<double> partition_priority_;
  std::unordered_map<std::uint64_t, JobRecord> jobs_;  // node-based: stable addresses
  std::vector<JobRecord*> waiting_;                    // pending, held or blocked
  std::vector<JobRecord*> running_;
  OpenJobCounts open_jobs_;                          // for max_submitted_jobs_per_user and max_jobs_per_user
  EndedJobs ended_;                                  // every forgotten job's outcome, for --dependency
  std::optional<JobState> state_of(JobId id) const;  // nullopt: not held (any more)
};

}  // namespace fairway
