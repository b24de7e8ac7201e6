// Job status updates an agent owes its coordinator: numbered, kept until acknowledged and
// resent on a timer, so a coordinator restart or a lost frame never loses a job's end.
// Pure; not thread-safe (the agent's one loop thread owns it).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "shared/wire/messages.h"

namespace fairway::agent {

class StatusOutbox {
 public:
  // Numbers the update and keeps it; returns it ready to send now.
  wire::JobStatusUpdate add(wire::JobStatusUpdate update, Time now);
  // An Ack for `seq`: that update is delivered. Unknown seqs are ignored (duplicates).
  void acknowledge(std::uint64_t seq);
  // Updates not acknowledged within `patience` of their last send; marks them sent now.
  std::vector<wire::JobStatusUpdate> due(Time now, Duration patience);
  // Everything still owed, oldest first (after a re-registration: send all again).
  std::vector<wire::JobStatusUpdate> all(Time now);
  std::size_t pending() const { return pending_.size(); }

 private:
  struct Entry {
    wire::JobStatusUpdate update;
    Time last_sent;
  };
  std::uint64_t next_seq_ = 1;  // 0 is the registration's Ack
  std::map<std::uint64_t, Entry> pending_;
};

}  // namespace fairway::agent
