// A running job's steps (srun) at the coordinator: their numbers, the ones still open as
// stored, and the cores its --exclusive/--exact steps hold. Each change returns the rows
// the store must get; the book itself never touches the store. Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "coordinator/core/step_cores.h"
#include "coordinator/daemon/stored_job.h"
#include "shared/wire/step_messages.h"

namespace fairway::daemon {

class StepBook {
 public:
  // The number the next step gets: numbers are never reused within a job, across requeues
  // and (restore_next) restarts.
  std::int32_t next_number() const { return next_; }

  // srun --exclusive/--exact: cores of the next step's own on each node, as many as it
  // needs there; nullopt (nothing taken, no number used) while other steps hold them.
  std::optional<std::vector<std::vector<std::int32_t>>> take_cores(const std::vector<StepCores::Need>& needs);

  // Opens the next step with `row` (its number filled in, running): the row to store.
  const StoredStep& open(StoredStep row);

  // Its srun's report: the step's row ended as it says (killed by a signal CANCELLED, a
  // non-zero exit FAILED, else COMPLETED), to store, and its cores free. nullopt when the
  // step is not open.
  std::optional<StoredStep> end(const wire::StepEnded& m, Time now);

  // The job stopped running: the steps whose srun has not said how they ended were killed
  // with it (or their srun died), CANCELLED by SIGKILL as Slurm records them. The rows to
  // store; every core is free again. The numbering goes on.
  std::vector<StoredStep> end_all(Time now);

  // At recovery: a step the store holds open, and the job's next number.
  void restore_open(StoredStep row);
  void restore_next(std::int32_t number) { next_ = number; }

  const std::map<std::int32_t, StoredStep>& open_steps() const { return open_; }

 private:
  std::int32_t next_ = 0;
  std::map<std::int32_t, StoredStep> open_;
  StepCores cores_;
};

}  // namespace fairway::daemon
