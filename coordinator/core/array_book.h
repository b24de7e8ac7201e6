// The job arrays the scheduler holds: each waits as one admitted prototype plus the tasks
// not yet made into jobs, is made into jobs a few tasks at a time, and leaves when its last task ends.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "coordinator/core/array_job.h"
#include "coordinator/core/cluster_state.h"
#include "coordinator/core/job_dependencies.h"
#include "coordinator/core/job_record.h"
#include "shared/base/result.h"

namespace fairway {

// The book hands made tasks back as records; the scheduler queues them (it owns the jobs).
// Each pass makes as many tasks of an array as could start now plus `reservations` more to
// plan, within its %limit, so a pass does not cost more for the tasks an array has yet to run.
class ArrayBook {
 public:
  // An admitted array (its prototype's spec.array set) joins the book, waiting.
  void add(JobRecord prototype);
  bool empty() const { return arrays_.empty(); }
  bool contains(JobId id) const { return arrays_.contains(id.value()); }
  const ArrayJob* find(JobId id) const;
  const std::map<std::uint64_t, ArrayJob>& all() const { return arrays_; }
  // The array, still waiting or running, whose task ids include `task`.
  const ArrayJob* holding(JobId task) const;
  // ... when `task` is still only implied by it (not made into a job, not ended).
  const ArrayJob* unmade_holder(JobId task) const;
  // What an array or an unmade task is in now; nullopt when the book holds no such id.
  std::optional<JobState> state_of(JobId id) const;

  // Open jobs a spec adds for the per-user limits: an array counts every task at once (as
  // Slurm's MaxSubmitJobs), a restored task that takes its place back in its array none.
  // Refuses indices of `max_array_size` or more.
  Result<std::int64_t> jobs_added_by(const JobSpec& spec, std::int32_t max_array_size) const;
  // A task restored after a restart is a job again: its array no longer implies it.
  void claim(JobId task);

  // The pass's new tasks, in the order to queue them: per array, what fits in its
  // partition's free resources now plus `reservations` to plan, within its %limit.
  // `waiting` and `running` are the scheduler's lists, for the tasks already made.
  std::vector<JobRecord> make_tasks(std::span<JobRecord* const> waiting, std::span<JobRecord* const> running,
                                    const ClusterState& cluster, std::int64_t reservations);
  // Task `index` of `array` made a job now, to act on it alone (held when the array is).
  struct Split {
    JobId id;
    std::optional<JobRecord> made;  // empty: the task was a job already
  };
  Result<Split> split(JobId array, std::int32_t index);

  // The array ends its unmade tasks as cancelled; the made ones the caller cancels one by
  // one (running ones have processes to stop), and the array ends with the last of them.
  void cancel(JobId id, EndedJobs& ended);
  // No task is made from a held array; its age counts from release, as a job's.
  void set_held(JobId id, bool held, Time now);
  void task_started(JobId task);
  // A task made into a job reached a terminal state; the last one ends its array.
  void task_ended(const JobRecord& task, EndedJobs& ended);
  // A task that ended before a restart and that its array still implies (unmade_holder).
  void unmade_task_ended(JobId task, JobState how, EndedJobs& ended);
  // Arrays whose last task ended since the last call (ArrayJob::outcome says how).
  std::vector<ArrayJob> take_ended() { return std::exchange(ended_, {}); }

 private:
  ArrayJob* holding(JobId task);
  static JobRecord make_task(const ArrayJob& a, std::int64_t position);
  // `n` tasks of `a` ended (`how`); the last one ends the array (it leaves the book then).
  void tasks_ended(ArrayJob& a, std::int64_t n, JobState how, EndedJobs& ended);

  std::map<std::uint64_t, ArrayJob> arrays_;  // by id: a task id finds its array by bound
  std::vector<ArrayJob> ended_;
};

}  // namespace fairway
