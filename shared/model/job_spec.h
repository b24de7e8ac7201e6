// Everything a user states when submitting a job, before the scheduler has decided
// anything about it. Names (user, account, ...) are strings here; the core interns them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "shared/base/ids.h"
#include "shared/base/time.h"
#include "shared/model/resources.h"

namespace fairway {

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
  Duration time_limit = Duration::hours(1);
  Time submit_time;
  bool requeue = true;      // may be requeued after preemption or node failure
  bool interactive = false;
  bool hold = false;        // submitted held (sbatch --hold)
  // May span islands even where its partition keeps jobs within one island
  // (island_placement = "require"; Slurm's --switches override on Fram).
  bool allow_multi_island = false;
};

}  // namespace fairway
