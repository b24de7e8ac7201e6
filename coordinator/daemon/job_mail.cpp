#include "coordinator/daemon/job_mail.h"

#include "coordinator/daemon/coordinator_service.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "shared/base/duration_format.h"
#include "shared/base/log.h"

extern char** environ;

namespace fairway::daemon {
namespace {

std::string header_safe(std::string_view s) {
  std::string out;
  for (char c : s) out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c;
  return out;
}

std::string event_word(JobMailEvent e) {
  switch (e) {
    case kMailBegin:
      return "Began";
    case kMailEnd:
      return "Ended";
    case kMailFail:
      return "Failed";
    case kMailRequeue:
      return "Requeued";
    case kMailTimeLimit:
      return "Reached time limit";
    case kMailTimeLimit90:
      return "Reached 90% of time limit";
    case kMailTimeLimit80:
      return "Reached 80% of time limit";
    case kMailTimeLimit50:
      return "Reached 50% of time limit";
  }
  return "Changed";
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string compose_job_mail(const JobMailFacts& f) {
  const std::string id = std::to_string(f.job.value());
  std::string subject = "Fairway " + std::string(f.array ? "Array " : "") +
                        "Job_id=" + (f.array ? id + "_* (" + id + ")" : id) + " Name=" + header_safe(f.name) +
                        " " + event_word(f.event);
  if (f.event != kMailBegin) {
    if (f.run_time) subject += ", Run time " + format_walltime(*f.run_time);
    subject += ", " + upper(to_string(f.state));
    if (f.exit_code) subject += ", ExitCode " + std::to_string(*f.exit_code);
    if (f.signal) subject += ", Signal " + std::to_string(*f.signal);
  }
  std::string body = "Job " + std::to_string(f.job.value()) + " (" + header_safe(f.name) + ") of user " +
                     f.user + ": " + event_word(f.event) + ", state " + upper(to_string(f.state)) + ".\n";
  if (!f.reason.empty()) body += "Reason: " + f.reason + "\n";
  return "To: " + header_safe(f.to) + "\nSubject: " + subject + "\nAuto-Submitted: auto-generated\n\n" + body;
}

JobMailer::~JobMailer() {
  reap();
}

Status JobMailer::send(const std::string& message) {
  if (program_.empty()) return ok_status();
  if (::access(program_.c_str(), X_OK) != 0) {
    return make_error(ErrorCode::kNotFound, "no mail sent: " + program_ + " is not there (" +
                                                std::strerror(errno) +
                                                "); set [coordinator] mail_program, or \"\" to stop trying");
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return make_error(ErrorCode::kIo, std::string("pipe2: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::string arg0 = program_, t = "-t", oi = "-oi";
  char* argv[] = {arg0.data(), t.data(), oi.data(), nullptr};
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, program_.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[0]);
  if (rc != 0) {
    ::close(fds[1]);
    return make_error(ErrorCode::kIo, "cannot start " + program_ + ": " + std::strerror(rc));
  }
  pids_.push_back(pid);
  // A message is far below the pipe's buffer: the write does not wait for the reader. A
  // reader that died early must not kill the coordinator with SIGPIPE: it is blocked for
  // the write and a pending one is consumed, whatever the process's disposition.
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  std::size_t off = 0;
  bool broken = false;
  while (off < message.size()) {
    const ssize_t n = ::write(fds[1], message.data() + off, message.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      broken = n < 0 && errno == EPIPE;
      break;
    }
    off += static_cast<std::size_t>(n);
  }
  ::close(fds[1]);
  if (broken && !sigismember(&old, SIGPIPE)) {
    const timespec none{0, 0};
    (void)::sigtimedwait(&pipe_only, nullptr, &none);
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return ok_status();
}

void JobMailer::reap() {
  std::erase_if(pids_, [&](pid_t pid) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == 0) return false;
    if (r == pid && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
      log_event(LogLevel::kWarning, "mail_failed",
                {{"program", program_},
                 {"status", WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                              : "signal " + std::to_string(WTERMSIG(status))}});
    }
    return true;
  });
}

void CoordinatorService::mail_about(JobId id, JobMailEvent event, std::optional<Duration> run_time) {
  const JobRecord* rec = scheduler_->job(id);
  if (rec == nullptr || rec->spec.mail_events == 0) return;
  if (rec->spec.is_array_task()) {
    // An array mails as one job, as Slurm without ARRAY_TASKS: when its first task begins
    // and when its last ends (mail_array_end), never once per task.
    auto array = tracking_.find(rec->spec.array_job.value());
    if (event != kMailBegin || array == tracking_.end() || array->second.array_begin_mailed) return;
    array->second.array_begin_mailed = true;
    if ((rec->spec.mail_events & kMailBegin) == 0) return;
    JobMailFacts f;
    f.job = rec->spec.array_job;
    f.array = true;
    f.name = rec->spec.name;
    f.user = rec->spec.user;
    f.to = rec->spec.mail_user.empty() ? rec->spec.user : rec->spec.mail_user;
    f.event = kMailBegin;
    f.state = JobState::kRunning;
    send_mail(f);
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
  send_mail(f);
}

void CoordinatorService::mail_array_end(const ArrayJob& a) {
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
  send_mail(f);
}

void CoordinatorService::send_mail(const JobMailFacts& f) {
  const std::string id = std::to_string(f.job.value());
  if (auto st = mailer_.send(compose_job_mail(f)); !st) {
    log_event(LogLevel::kWarning, "mail_skipped", {{"job", id}, {"error", st.error().message}});
    return;
  }
  log_event(LogLevel::kInfo, "mail_sent", {{"job", id}, {"to", f.to}});
}

void CoordinatorService::mail_time_limits(Time now) {
  constexpr std::uint8_t kTimeMails = kMailTimeLimit | kMailTimeLimit90 | kMailTimeLimit80 | kMailTimeLimit50;
  struct Share {
    JobMailEvent event;
    std::int64_t percent;
  };
  constexpr Share kShares[] = {
      {kMailTimeLimit50, 50}, {kMailTimeLimit80, 80}, {kMailTimeLimit90, 90}, {kMailTimeLimit, 100}};
  for (const JobRecord* j : scheduler_->running()) {
    const std::uint8_t asked = j->spec.mail_events & kTimeMails;
    const Duration limit = j->spec.time_limit;
    if (asked == 0 || limit.is_infinite() || limit.count() <= 0) continue;
    JobTracking& t = tracking_[j->spec.id.value()];
    if (t.time_mails_run != j->start_time) {
      t.time_mails_run = j->start_time;
      t.time_mails_sent = 0;
    }
    const Duration ran = now - j->start_time;
    for (const Share& s : kShares) {
      if ((asked & s.event) == 0 || (t.time_mails_sent & s.event) != 0) continue;
      if (ran.count() * 100 < limit.count() * s.percent) continue;
      t.time_mails_sent |= s.event;
      mail_about(j->spec.id, s.event, ran);
    }
  }
}

}  // namespace fairway::daemon
