// The scheduling core's front door: the queue, the machine and fair-share, changed only
// through these calls, each taking `now`. The daemons and the simulator drive this same
// class. Not thread-safe: one owner thread. Pure: no I/O, clocks or randomness.
#pragma once

#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "coordinator/core/allocation_overuse.h"
#include "coordinator/core/cluster_state.h"
#include "coordinator/core/fair_share_ledger.h"
#include "coordinator/core/job_record.h"
#include "coordinator/core/maxps_limit.h"
#include "coordinator/core/running_caps.h"
#include "shared/base/result.h"
#include "shared/config/config.h"

namespace fairway {

struct JobStart {
  JobId id;
  // The reservation the job held at the pass before this one, if any: lets a driver
  // check that reserved jobs started no later than promised.
  std::optional<Time> reserved_start;
  std::optional<Time> reserved_at;
};

struct PassResult {
  std::vector<JobStart> started;
  std::size_t considered = 0;    // waiting jobs looked at (held ones included)
  std::size_t reservations = 0;  // jobs given a reservation
};

class Scheduler {
 public:
  // Builds the machine from config.nodes and config.partitions.
  static Result<std::unique_ptr<Scheduler>> create(const Config& config);

  // Accepts a job or says exactly why not (unknown partition, over the time limit, larger
  // than the partition can ever hold, duplicate id, ...).
  Status submit(JobSpec spec, Time now);
  // A running job's processes ended: `final_state` is completed, failed or timeout.
  Status finish(JobId id, JobState final_state, Time now);
  Status cancel(JobId id, Time now);
  Status hold(JobId id);
  Status release(JobId id, Time now);
  // Drops the record of a job in a terminal state (the simulator does this to keep
  // memory flat over millions of jobs; the daemon keeps records until archived).
  void forget(JobId id);

  // One pass: priorities, then the backfill engine. Started jobs are running on return.
  PassResult schedule(Time now);

  const JobRecord* job(JobId id) const;
  std::span<JobRecord* const> waiting() const { return waiting_; }
  std::span<JobRecord* const> running() const { return running_; }
  const ClusterState& cluster() const { return cluster_; }
  const FairShareLedger& fair_share() const { return ledger_; }
  const Config& config() const { return config_; }

 private:
  explicit Scheduler(Config config);
  Status init();
  void start_job(JobRecord& j, Allocation alloc, Time now);
  void remove_from(std::vector<JobRecord*>& list, JobRecord& j);
  JobRecord* find(JobId id);

  Config config_;
  ClusterState cluster_;
  FairShareLedger ledger_;
  MaxPsLimit maxps_;  // built once from config; per-pass sums are reset by begin_pass
  AllocationOveruse overuse_;
  RunningCaps running_caps_;  // per-pass counts reset by begin_pass
  std::vector<double> partition_priority_;
  std::unordered_map<std::uint64_t, JobRecord> jobs_;  // node-based: stable addresses
  std::vector<JobRecord*> waiting_;  // pending, held or blocked
  std::vector<JobRecord*> running_;
  // Jobs each user has pending, blocked, held or running, for max_submitted_jobs_per_user.
  std::unordered_map<std::string, std::int32_t> open_jobs_by_user_;
  // The same per partition ("partition\0user"), for partitions.max_jobs_per_user.
  std::unordered_map<std::string, std::int32_t> open_jobs_by_partition_user_;
  static std::string partition_user_key(const JobSpec& spec);
  void count_closed(const JobRecord& j);
};

}  // namespace fairway
