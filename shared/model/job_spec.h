// Everything a user states when submitting a job, before the scheduler has decided
// anything about it. Names (user, account, ...) are strings here; the core interns them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shared/base/ids.h"
#include "shared/base/time.h"
#include "shared/model/job_array.h"
#include "shared/model/resources.h"

namespace fairway {

// How the user split the job into tasks (-n, -c, --ntasks-per-node). Placement only needs
// the cores these add up to (ResourceRequest); the job's environment needs the split
// itself, and Slurm sets SLURM_NTASKS and friends only for what the user gave. 0: not given.
// How the job asked for its GPUs, kept as asked for display (scontrol's TresPerJob,
// TresPerNode, TresPerTask, CpusPerTres, MemPerTres; squeue %b): scheduling reads the
// ResourceRequest they were turned into.
enum class GpuAskedPer : std::uint8_t { kNone = 0, kJob = 1, kNode = 2, kTask = 3 };
struct GpuAsk {
  GpuAskedPer per = GpuAskedPer::kNone;
  std::int32_t count = 0;  // GPUs per job, node or task as asked
  std::int32_t cpus_per_gpu = 0;
  std::int64_t mem_per_gpu_mb = 0;
  bool operator==(const GpuAsk&) const = default;
};

struct TaskLayout {
  std::int32_t ntasks = 0;
  std::int32_t cpus_per_task = 0;
  std::int32_t ntasks_per_node = 0;
  bool operator==(const TaskLayout&) const = default;
};

// One clause of sbatch --dependency. after: every listed job has started (or ended);
// afterany: ended in any state; afterok: completed with exit 0; afternotok: ended
// otherwise; singleton: no other job of the same user and name runs (or waits ahead).
enum class DependencyType : std::uint8_t { kAfter, kAfterAny, kAfterOk, kAfterNotOk, kSingleton };

// sbatch --mail-type events the coordinator mails about.
enum JobMailEvent : std::uint8_t {
  kMailBegin = 1,
  kMailEnd = 2,
  kMailFail = 4,
  kMailRequeue = 8,
  // The job has run this share of its time limit (TIME_LIMIT: all of it).
  kMailTimeLimit = 16,
  kMailTimeLimit90 = 32,
  kMailTimeLimit80 = 64,
  kMailTimeLimit50 = 128,
};

struct DependencyClause {
  DependencyType type = DependencyType::kAfterAny;
  std::vector<JobId> jobs;  // empty for singleton
  bool operator==(const DependencyClause&) const = default;
};

struct JobSpec {
  JobId id;
  std::string name;
  std::string user;
  // The submitter as the coordinator authenticated it (kernel or MUNGE); the job runs as
  // exactly this uid/gid. Unset only for jobs stored before identities were proven.
  std::optional<std::uint32_t> uid;
  std::optional<std::uint32_t> gid;
  std::string account;
  std::string partition;  // empty: the default partition
  std::string qos;        // empty: the partition's default QOS
  ResourceRequest resources;
  TaskLayout tasks;
  GpuAsk gpu_ask;
  std::string comment;  // sbatch --comment: shown, never interpreted
  // sbatch --reservation: runs only on that project reservation's nodes, inside its window.
  std::string reservation;
  // --dependency: all clauses must hold (','), or any one of them ('?').
  std::vector<DependencyClause> dependencies;
  bool dependency_any = false;
  // A dependency that can never be met cancels the job instead of leaving it pending.
  bool kill_on_invalid_dep = false;
  std::optional<Time> begin;  // --begin: not eligible before this time
  // --nice: subtracted from the priority (negative values are for admins).
  std::int32_t nice = 0;
  // --exclusive: whole nodes (the partition's largest node size), shared with no one.
  bool exclusive = false;
  // -w/--nodelist: only these nodes; -x/--exclude: never these; -C/--constraint: nodes
  // whose features satisfy "a&b" or "a|b" (one operator; a single feature alone).
  std::vector<std::string> only_nodes;
  std::vector<std::string> excluded_nodes;
  std::string constraint;
  // --signal=[B:]SIG[@SECONDS]: SIG that many seconds before the time limit, to the job's
  // processes or (B:) to the batch script alone. 0: none.
  std::int32_t warn_signal = 0;
  std::int32_t warn_before_s = 0;
  bool warn_batch_only = false;
  // --mail-type (JobMailEvent bits) and --mail-user (empty: the job's user, delivered
  // locally).
  std::uint8_t mail_events = 0;
  std::string mail_user;
  Duration time_limit = Duration::hours(1);
  Time submit_time;
  bool requeue = true;  // may be requeued after preemption or node failure
  bool interactive = false;
  bool hold = false;  // submitted held (sbatch --hold)
  // sbatch --array: the array's tasks (empty: not an array). The spec of one task has this
  // empty and names its array and index instead; its id is array_job + 1 + its position.
  ArraySpec array;
  JobId array_job;  // 0: not a task of an array
  std::int32_t array_task = 0;
  bool is_array_task() const { return array_job.value() != 0; }
  // May span islands even where its partition keeps jobs within one island
  // (island_placement = "require"; Slurm's --switches override on Fram).
  bool allow_multi_island = false;
};

}  // namespace fairway
