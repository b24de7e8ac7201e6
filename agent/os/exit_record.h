// A job's exit status as its keeper wrote it to the spool (job_keeper.h): how an agent
// that restarted while the job ended still reports the real exit code. Kept until the
// coordinator acknowledged the job's end. Not thread-safe: one owner (the agent).
#pragma once

#include <optional>
#include <string>

#include "agent/core/process_exit.h"
#include "shared/base/ids.h"
#include "shared/base/result.h"

namespace fairway::agent {

std::string exit_record_path(const std::string& spool_dir, JobId job);

struct ExitRecord {
  ProcessExit exit;
  // The job's keeper stopped it itself (its lease ran out with no agent to renew it): the
  // end is then the node's failure, not the job's.
  bool fenced = false;
  // What the job's process used, as wait4 told its keeper: its largest resident set and
  // its CPU time, its reaped children's included (the batch script's own, without steps
  // that run under their relays). Absent from records of older keepers.
  std::optional<std::int64_t> max_rss_kb = {};
  std::optional<std::int64_t> cpu_us = {};
  bool operator==(const ExitRecord&) const = default;
};

// The recorded exit; nullopt when there is no record (the job still runs, or its keeper
// was killed). A record that does not parse is an error naming the file and its text.
Result<std::optional<ExitRecord>> read_exit_record(const std::string& spool_dir, JobId job);

// Removes the record; none is not an error.
Status remove_exit_record(const std::string& spool_dir, JobId job);

}  // namespace fairway::agent
