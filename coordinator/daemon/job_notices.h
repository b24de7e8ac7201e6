// Which job mails are due (sbatch --mail-type, --mail-user) and their sending: a job's
// begin, end, requeue and time-limit shares, and a job array mailed as one job.
// Not thread-safe: the daemon's one event-loop thread owns it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>

#include "coordinator/core/scheduler.h"
#include "coordinator/daemon/job_mail.h"
#include "coordinator/daemon/job_tracking.h"
#include "coordinator/daemon/mailer.h"

namespace fairway::daemon {

class JobNotices {
 public:
  // `scheduler` and `tracking` are the service's and outlive this: the jobs' specs and
  // states are read from the core, and what each job was already mailed about is kept in
  // its JobTracking (an array's begin, the time-limit shares of its current run).
  JobNotices(std::unique_ptr<Mailer> mailer, const Scheduler& scheduler,
             std::unordered_map<std::uint64_t, JobTracking>& tracking);

  // Mails the job's user when `event` is one it asked for; at its end (kMailEnd) a failed
  // job also counts as kMailFail. `run_time`: how long it has run, for the mails sent
  // while it runs (time limits). A task of an array mails only its array's begin, once.
  void about(JobId id, JobMailEvent event, std::optional<Duration> run_time = std::nullopt);
  // An array mails as one job: at its end, END (or FAIL) with what it ended as.
  void array_ended(const ArrayJob& a);
  // --mail-type=TIME_LIMIT, _90, _80, _50: running jobs that crossed those shares of their
  // limit, each share once per run.
  void time_limits(Time now);
  // Each timer tick: what sending left behind (Mailer::reap).
  void reap() { mailer_->reap(); }

 private:
  // A failed send is logged and skipped: the job goes on.
  void send(const JobMailFacts& f);

  std::unique_ptr<Mailer> mailer_;
  const Scheduler& scheduler_;
  std::unordered_map<std::uint64_t, JobTracking>& tracking_;
};

}  // namespace fairway::daemon
