// What the agent launched, one small file per running job in its spool dir, so that a
// restarted agent re-adopts the jobs still alive. Not thread-safe: one owner (the agent).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shared/base/ids.h"
#include "shared/base/result.h"
#include "shared/base/time.h"

namespace fairway::agent {

struct JobCheckpoint {
  JobId job;
  std::int64_t pid = 0;
  std::int64_t pgid = 0;
  Time start;
  Duration time_limit;
  std::vector<std::int32_t> cores;
  std::vector<std::int32_t> gpus;
  // /proc/<pid>/stat field 22: tells the job's process from a later one given its pid.
  // 0: not known (the keeper wrote the checkpoint and the agent died before adding it).
  std::uint64_t process_start_ticks = 0;
  // sbatch --signal (0: none), so that a restarted agent still sends it when it is due.
  std::int32_t warn_signal = 0;
  std::int32_t warn_before_s = 0;
  bool warn_batch_only = false;
  // Holds the cgroup of a job whose batch script runs on another node (LaunchJob.extern_only):
  // its end is not the job's and is not reported.
  bool extern_only = false;
  // Its run (LaunchJob.restarts), which its reports name; absent in older files.
  std::optional<std::int32_t> attempt = std::nullopt;
  bool operator==(const JobCheckpoint&) const = default;
};

// A step's relay (fairway-step) in a running job, in a file of its own beside its job's
// (job-<id>.step-<n>.checkpoint, which agents before it pass over), so that a restarted
// agent still gives the step's tasks their job's signals and waits for them before it
// reports the job's end.
struct StepCheckpoint {
  JobId job;
  std::int32_t step = 0;
  std::int64_t pid = 0;   // the relay's keeper, the agent's child
  std::int64_t pgid = 0;  // the relay's process group: where the job's signals go
  // Tells the keeper from a later process given its pid (0: not known).
  std::uint64_t process_start_ticks = 0;
  bool operator==(const StepCheckpoint&) const = default;
};

// The text form of one checkpoint, and back. Parse errors name the field and value.
std::string format_checkpoint(const JobCheckpoint& checkpoint);
std::string format_step_checkpoint(const StepCheckpoint& checkpoint);
Result<StepCheckpoint> parse_step_checkpoint(std::string_view text);
// The same without the pid and pgid lines: what a job's keeper completes (job_keeper.h).
// process_start_ticks is written as 0: "not known yet", which liveness checks accept.
std::string format_checkpoint_without_process(const JobCheckpoint& checkpoint);
Result<JobCheckpoint> parse_checkpoint(std::string_view text);

struct CheckpointScan {
  std::vector<JobCheckpoint> live;  // the process still runs: re-adopt it
  std::vector<JobCheckpoint> lost;  // the process is gone or its pid reused: report it ended
  std::vector<Error> errors;        // unreadable or corrupt files, skipped
  // Steps' relays, split the same way; a lost step's file stays until remove_step().
  std::vector<StepCheckpoint> live_steps, lost_steps;
};

class LaunchCheckpoint {
 public:
  // `dir` must exist; files are named job-<id>.checkpoint in it.
  explicit LaunchCheckpoint(std::string dir);

  // Atomic: a temp file renamed over the old one (no fsync: see the .cpp for why).
  Status save(const JobCheckpoint& checkpoint) const;

  // Removes the job's file once its end is reported; a missing file is not an error.
  Status remove(JobId job) const;

  // Every checkpoint in the dir, split by whether its process is still the job's
  // (pid alive and not a zombie, same start ticks). Never fails as a whole: a corrupt
  // file lands in `errors`. Lost jobs' files stay until remove().
  CheckpointScan load_all() const;

  // The same for a step's relay.
  Status save_step(const StepCheckpoint& checkpoint) const;
  Status remove_step(JobId job, std::int32_t step) const;

  std::string path_of(JobId job) const;
  std::string path_of_step(JobId job, std::int32_t step) const;
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
};

}  // namespace fairway::agent
