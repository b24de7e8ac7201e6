// Where the coordinator's job mail goes: an interface, so that which mails are due
// (JobNotices) is decided apart from how one is sent (ProgramMailer spawns the mail program).
// Not thread-safe: called from the coordinator's event loop only.
#pragma once

#include <string>

#include "shared/base/result.h"

namespace fairway::daemon {

class Mailer {
 public:
  virtual ~Mailer() = default;
  // Hands a composed message (compose_job_mail) on and returns at once. An error names
  // what failed: the caller logs it, and the job goes on.
  virtual Status send(const std::string& message) = 0;
  // Called on each timer tick: collects what sending left behind (finished senders).
  virtual void reap() = 0;
};

}  // namespace fairway::daemon
