// What a daemon does differently under systemd: logs to journald with structured fields
// (JOB_ID=, NODE=) and tells systemd when it is ready, alive (WatchdogSec=), what it is doing
// (STATUS=, shown by systemctl status) and when it stops (Type=notify). Main thread only.
#pragma once

#include <string>

namespace fairway {

// Routes log_event() to journald when stderr is connected to the journal (JOURNAL_STREAM).
void use_journal_if_connected();
void notify_ready();
void notify_stopping();
// RELOADING=1 with the monotonic timestamp systemd asks of a reload; READY=1 ends it.
void notify_reloading();
// One line for `systemctl status`: "12 jobs waiting, 3 running; 4 of 4 nodes up".
void notify_status(const std::string& line);
// WATCHDOG=1 when the unit sets WatchdogSec (no-op otherwise). Call at least twice per
// watchdog period from the event loop, so that a hung loop is what systemd restarts.
void notify_watchdog();

}  // namespace fairway
