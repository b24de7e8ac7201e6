// Job mail (sbatch --mail-type/--mail-user): the facts of one mail and the message they
// make, as Slurm's mails say it. Pure functions; JobNotices decides which mails are due and
// a Mailer (program_mailer.h) sends them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "shared/base/time.h"
#include "shared/model/job_spec.h"
#include "shared/model/job_state.h"

namespace fairway::daemon {

struct JobMailFacts {
  JobId job;
  std::string name, user, to;  // `to`: --mail-user, or the user for local delivery
  JobMailEvent event = kMailEnd;
  JobState state = JobState::kPending;
  std::optional<std::int32_t> exit_code, signal;
  std::optional<Duration> run_time;
  std::string reason;
  // A job array as a whole: "Job_id=42_* (42)", as Slurm's array mails name it.
  bool array = false;
};

// "To:", "Subject:" and a short body, as Slurm's mails say it ("Slurm Job_id=42
// Name=md Ended, Run time 00:10:00, COMPLETED, ExitCode 0"). Header values lose any
// control character, so a job name cannot add headers.
std::string compose_job_mail(const JobMailFacts& facts);

}  // namespace fairway::daemon
