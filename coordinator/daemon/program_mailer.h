// The Mailer that hands each message to the site's sendmail-compatible program
// ([coordinator] mail_program) without waiting for it; the senders are reaped on the timer.
// Not thread-safe: called from the coordinator's event loop only.
#pragma once

#include <string>
#include <vector>

#include <sys/types.h>

#include "coordinator/daemon/mailer.h"

namespace fairway::daemon {

class ProgramMailer : public Mailer {
 public:
  // `program`: empty sends nothing (mail is off).
  explicit ProgramMailer(std::string program) : program_(std::move(program)) {}
  ProgramMailer(const ProgramMailer&) = delete;
  ProgramMailer& operator=(const ProgramMailer&) = delete;
  ~ProgramMailer() override;

  // Starts `program -t -oi` with `message` on its stdin and returns at once. An error
  // (no program, spawn failed) names the program.
  Status send(const std::string& message) override;
  // Collects the senders that have ended; a sender that exited non-zero is logged with its
  // status.
  void reap() override;
  std::size_t in_flight() const { return pids_.size(); }

 private:
  std::string program_;
  std::vector<pid_t> pids_;
};

}  // namespace fairway::daemon
