// What a daemon does differently under systemd: logs to journald with structured fields
// (JOB_ID=, NODE=) and tells systemd when it is ready or stopping (Type=notify).
// Call from the main thread at start-up and shutdown.
#pragma once

namespace fairway {

// Routes log_event() to journald when stderr is connected to the journal (JOURNAL_STREAM).
void use_journal_if_connected();
void notify_ready();
void notify_stopping();

}  // namespace fairway
