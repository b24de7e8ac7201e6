#include "agent/daemon/status_outbox.h"

namespace fairway::agent {

wire::JobStatusUpdate StatusOutbox::add(wire::JobStatusUpdate update, Time now) {
  update.seq = next_seq_++;
  pending_[update.seq] = Entry{update, now};
  return update;
}

void StatusOutbox::acknowledge(std::uint64_t seq) {
  pending_.erase(seq);
}

std::vector<wire::JobStatusUpdate> StatusOutbox::due(Time now, Duration patience) {
  std::vector<wire::JobStatusUpdate> out;
  for (auto& [seq, e] : pending_) {
    if (now - e.last_sent < patience) continue;
    e.last_sent = now;
    out.push_back(e.update);
  }
  return out;
}

std::vector<wire::JobStatusUpdate> StatusOutbox::all(Time now) {
  std::vector<wire::JobStatusUpdate> out;
  for (auto& [seq, e] : pending_) {
    e.last_sent = now;
    out.push_back(e.update);
  }
  return out;
}

}  // namespace fairway::agent
