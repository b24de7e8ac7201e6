// The agent's side of its link to the coordinator: frames out in order, registration and
// its retries, heartbeats, the status updates owed (StatusOutbox), and the coordinator's lease.
// Not thread-safe: the agent's one loop thread owns it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "agent/daemon/agent_host.h"
#include "agent/daemon/status_outbox.h"
#include "shared/wire/messages.h"

namespace fairway::agent {

// How a job's script ended, as its final report tells it.
struct JobEnd {
  JobState state = JobState::kCompleted;
  std::optional<std::int32_t> exit_code, signal;
  std::string reason;
  // What its script used as its keeper saw it: the figures when no cgroup counted.
  std::optional<std::int64_t> max_rss_kb, cpu_us;
};

class CoordinatorLink {
 public:
  // `hello`: what every registration says of this node (its name, version, topology and
  // enforcement); `lease`: how long the jobs may run on without word from the coordinator.
  CoordinatorLink(wire::AgentRegister hello, Duration heartbeat_interval, Duration lease, AgentHost& host);

  void send(const wire::Message& m);
  // Frames for the coordinator, in order.
  std::vector<std::string> take_outgoing();

  // Registers, naming the jobs this node holds (`running`).
  void send_register(std::vector<wire::RunningJob> running, Time now);
  // Not registered, and the last registration went unanswered long enough: send another.
  bool register_due(Time now) const;
  bool registered() const { return registered_; }
  // The coordinator's Ack of the registration: the updates owed go again (once).
  void on_registered(Time now);
  // The coordinator does not know us (it restarted, or declared us down): register again.
  void on_unknown() { registered_ = false; }
  // The Ack of update `seq`: delivered.
  void acknowledge(std::uint64_t seq) { outbox_.acknowledge(seq); }

  // A status update, kept until acknowledged; sent now once registered. Returns its
  // sequence number, which the coordinator's Ack names.
  std::uint64_t report(JobId job, std::optional<std::int32_t> attempt, JobState state,
                       std::optional<std::int32_t> exit_code, std::optional<std::int32_t> signal, Time now,
                       std::string reason = {}, const JobUsage* usage = nullptr);
  // A job's final report: how it ended, and what it used (its cgroup's count, else what
  // its keeper saw).
  std::uint64_t report_end(JobId job, std::optional<std::int32_t> attempt, const JobEnd& end, JobUsage usage,
                           Time now);

  // Registered: the heartbeat and the unacknowledged updates, when due.
  void on_timer(Time now);

  // The event loop's monotonic clock for this turn: the lease is measured on it, so a
  // wall-clock step can neither fence jobs nor keep them past their lease.
  void set_monotonic(Time mono) { mono_ = mono; }
  // Any frame from the (authenticated) coordinator renews the lease.
  void heard();
  // A fresh agent gives its coordinator a whole lease from its first turn.
  void start_lease();
  // The coordinator has been silent past the lease.
  bool lease_lapsed() const;

 private:
  // Renews the keepers' view of the lease (coordinator_lease_file.h).
  void publish_lease();

  wire::AgentRegister hello_;
  Duration heartbeat_interval_;
  Duration lease_;
  AgentHost& host_;
  StatusOutbox outbox_;
  std::vector<std::string> outgoing_;
  bool registered_ = false;
  std::optional<Time> last_register_;
  Time last_heartbeat_;
  std::uint64_t heartbeat_seq_ = 0;
  Time mono_;                     // set_monotonic()
  std::optional<Time> heard_at_;  // monotonic; unset until the first turn
};

}  // namespace fairway::agent
