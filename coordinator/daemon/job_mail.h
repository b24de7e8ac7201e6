// Job mail (sbatch --mail-type/--mail-user): the message for an event, and a sender that
// hands it to the site's sendmail-compatible program without waiting for it. The message
// is pure; JobMailer spawns processes and reaps them, from the coordinator's loop only.
#pragma once

#include <string>
#include <vector>

#include <sys/types.h>

#include "shared/base/result.h"
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

class JobMailer {
 public:
  explicit JobMailer(std::string program) : program_(std::move(program)) {}
  JobMailer(const JobMailer&) = delete;
  JobMailer& operator=(const JobMailer&) = delete;
  ~JobMailer();

  // Starts `program -t -oi` with `message` on its stdin and returns at once. An error
  // (no program, spawn failed) names the program: the caller logs it; the job goes on.
  Status send(const std::string& message);
  // Collects the senders that have ended (call each turn); a sender that exited non-zero
  // is logged with its status.
  void reap();
  std::size_t in_flight() const { return pids_.size(); }

 private:
  std::string program_;
  std::vector<pid_t> pids_;
};

}  // namespace fairway::daemon
