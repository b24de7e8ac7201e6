// A job array as the core keeps it: one admitted prototype and the tasks not yet made into
// jobs, so a 100,000-task array costs one record until its tasks are about to run.
#pragma once

#include <cstdint>

#include "coordinator/core/job_record.h"
#include "shared/model/job_array.h"

namespace fairway {

struct ArrayJob {
  // Admitted once (partition, QOS, priorities, association, node mask); every task is a
  // copy with its own id. spec.id is the array's id; spec.array its indices.
  JobRecord prototype;
  TaskPositions unsplit;  // tasks still only implied by the array
  bool held = false;      // no task is made from it while held
  bool cancelled = false;
  bool any_started = false;
  std::int64_t ended = 0;   // tasks in a terminal state, unsplit ones cancelled included
  bool any_failed = false;  // a task ended other than completed

  JobId id() const { return prototype.spec.id; }
  std::int64_t count() const { return prototype.spec.array.count(); }
  // Task ids follow the array's: id + 1 + position.
  JobId task_id(std::int64_t position) const {
    return JobId(id().value() + 1 + static_cast<std::uint64_t>(position));
  }
  std::int64_t position_of(JobId task) const {
    return static_cast<std::int64_t>(task.value() - id().value() - 1);
  }
  bool holds_id(JobId task) const {
    return task.value() > id().value() && task.value() <= id().value() + static_cast<std::uint64_t>(count());
  }
  // What the array as a whole ended as, once every task has.
  JobState outcome() const {
    return cancelled ? JobState::kCancelled : any_failed ? JobState::kFailed : JobState::kCompleted;
  }
};

}  // namespace fairway
