#include "coordinator/daemon/job_mail.h"

#include <cctype>

#include "shared/base/duration_format.h"

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

}  // namespace fairway::daemon
