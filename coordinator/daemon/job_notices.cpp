#include "coordinator/daemon/job_notices.h"

#include <string>
#include <utility>

#include "shared/base/log.h"

namespace fairway::daemon {

JobNotices::JobNotices(std::unique_ptr<Mailer> mailer, const Scheduler& scheduler)
    : mailer_(std::move(mailer)), scheduler_(scheduler) {}

void JobNotices::about(JobId id, JobMailEvent event, std::optional<Duration> run_time) {
  if (event == kMailEnd) time_mails_.erase(id.value());  // it runs no more
  const JobRecord* rec = scheduler_.job(id);
  if (rec == nullptr || rec->spec.mail_events == 0) return;
  if (rec->spec.is_array_task()) {
    // An array mails as one job, as Slurm without ARRAY_TASKS: when its first task begins
    // and when its last ends (mail_array_end), never once per task.
    const JobId array = rec->spec.array_job;
    if (event != kMailBegin || scheduler_.array(array) == nullptr ||
        !array_begins_mailed_.insert(array.value()).second) {
      return;
    }
    if ((rec->spec.mail_events & kMailBegin) == 0) return;
    JobMailFacts f;
    f.job = rec->spec.array_job;
    f.array = true;
    f.name = rec->spec.name;
    f.user = rec->spec.user;
    f.to = rec->spec.mail_user.empty() ? rec->spec.user : rec->spec.mail_user;
    f.event = kMailBegin;
    f.state = JobState::kRunning;
    send(f);
    return;
  }
  const bool failed = event == kMailEnd && rec->state != JobState::kCompleted;
  const std::uint8_t wanted = static_cast<std::uint8_t>(event | (failed ? kMailFail : 0));
  if ((rec->spec.mail_events & wanted) == 0) return;
  JobMailFacts f;
  f.job = id;
  f.name = rec->spec.name;
  f.user = rec->spec.user;
  f.to = rec->spec.mail_user.empty() ? rec->spec.user : rec->spec.mail_user;
  f.event = failed && (rec->spec.mail_events & kMailFail) != 0 ? kMailFail : event;
  f.state = rec->state;
  if (event == kMailEnd) {
    f.exit_code = rec->outcome.exit_code;
    f.signal = rec->outcome.signal;
    if (rec->start_time != Time()) f.run_time = rec->end_time - rec->start_time;
  }
  if (run_time) f.run_time = run_time;
  f.reason = rec->reason;
  send(f);
}

void JobNotices::array_ended(const ArrayJob& a) {
  array_begins_mailed_.erase(a.id().value());  // no task of it starts again
  const JobSpec& spec = a.prototype.spec;
  const bool failed = a.outcome() != JobState::kCompleted;
  if ((spec.mail_events & (kMailEnd | (failed ? kMailFail : 0))) == 0) return;
  JobMailFacts f;
  f.job = a.id();
  f.array = true;
  f.name = spec.name;
  f.user = spec.user;
  f.to = spec.mail_user.empty() ? spec.user : spec.mail_user;
  f.event = failed && (spec.mail_events & kMailFail) != 0 ? kMailFail : kMailEnd;
  f.state = a.outcome();
  send(f);
}

void JobNotices::send(const JobMailFacts& f) {
  const std::string id = std::to_string(f.job.value());
  if (auto st = mailer_->send(compose_job_mail(f)); !st) {
    log_event(LogLevel::kWarning, "mail_skipped", {{"job", id}, {"error", st.error().message}});
    return;
  }
  log_event(LogLevel::kInfo, "mail_sent", {{"job", id}, {"to", f.to}});
}

void JobNotices::time_limits(Time now) {
  constexpr std::uint8_t kTimeMails = kMailTimeLimit | kMailTimeLimit90 | kMailTimeLimit80 | kMailTimeLimit50;
  struct Share {
    JobMailEvent event;
    std::int64_t percent;
  };
  constexpr Share kShares[] = {
      {kMailTimeLimit50, 50}, {kMailTimeLimit80, 80}, {kMailTimeLimit90, 90}, {kMailTimeLimit, 100}};
  for (const JobRecord* j : scheduler_.running()) {
    const std::uint8_t asked = j->spec.mail_events & kTimeMails;
    const Duration limit = j->spec.time_limit;
    if (asked == 0 || limit.is_infinite() || limit.count() <= 0) continue;
    TimeMails& t = time_mails_[j->spec.id.value()];
    if (t.run != j->start_time) {
      t.run = j->start_time;
      t.sent = 0;
    }
    const Duration ran = now - j->start_time;
    for (const Share& s : kShares) {
      if ((asked & s.event) == 0 || (t.sent & s.event) != 0) continue;
      if (ran.count() * 100 < limit.count() * s.percent) continue;
      t.sent |= s.event;
      about(j->spec.id, s.event, ran);
    }
  }
}

}  // namespace fairway::daemon
