// Which job mails are due (sbatch --mail-type, --mail-user) and their sending: a job's
// begin, end, requeue and time-limit shares, and a job array mailed as one job.
// Not thread-safe: the daemon's one event-loop thread owns it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "coordinator/core/scheduler.h"
#include "coordinator/daemon/job_mail.h"
#include "coordinator/daemon/mailer.h"

namespace fairway::daemon {

class JobNotices {
 public:
  // `scheduler` is the service's and outlives this: the jobs' specs and states are read
  // from the core; what each job was already mailed about is kept here (an array's begin,
  // the time-limit shares of its current run), and forgotten when it ends.
  JobNotices(std::unique_ptr<Mailer> mailer, const Scheduler& scheduler);

  // Recovery: a task of `array` started before the restart, so its BEGIN mail went out.
  // (What time-limit shares were mailed is not kept across a restart.)
  void array_begin_mailed(JobId array) { array_begins_mailed_.insert(array.value()); }

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

  // --mail-type=TIME_LIMIT*: the shares of its limit mailed about for the run that
  // started at `run` (a requeued run starts over).
  struct TimeMails {
    std::uint8_t sent = 0;
    Time run;
  };

  std::unique_ptr<Mailer> mailer_;
  const Scheduler& scheduler_;
  // Live arrays whose first task's start was mailed about (--mail-type=BEGIN).
  std::unordered_set<std::uint64_t> array_begins_mailed_;
  // Running (or requeued) jobs that asked for time-limit mails, until they end.
  std::unordered_map<std::uint64_t, TimeMails> time_mails_;
};

}  // namespace fairway::daemon
