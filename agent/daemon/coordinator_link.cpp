#include "agent/daemon/coordinator_link.h"

#include <utility>

#include "shared/base/log.h"
#include "shared/wire/codec.h"

namespace fairway::agent {
namespace {

// How long an unacknowledged status update or registration waits before it is resent.
constexpr Duration kResendPatience = Duration::seconds(2);
constexpr Duration kRegisterRetry = Duration::seconds(3);

}  // namespace

CoordinatorLink::CoordinatorLink(wire::AgentRegister hello, Duration heartbeat_interval, Duration lease,
                                 AgentHost& host)
    : hello_(std::move(hello)), heartbeat_interval_(heartbeat_interval), lease_(lease), host_(host) {}

void CoordinatorLink::send(const wire::Message& m) {
  outgoing_.push_back(wire::encode(m));
}

std::vector<std::string> CoordinatorLink::take_outgoing() {
  return std::exchange(outgoing_, {});
}

void CoordinatorLink::send_register(std::vector<wire::RunningJob> running, Time now) {
  wire::AgentRegister r = hello_;
  r.running = std::move(running);
  send(r);
  last_register_ = now;
}

bool CoordinatorLink::register_due(Time now) const {
  return !registered_ && (!last_register_ || now - *last_register_ >= kRegisterRetry);
}

void CoordinatorLink::on_registered(Time now) {
  if (registered_) return;
  registered_ = true;
  log_event(LogLevel::kInfo, "agent_registered", {{"node", hello_.node}});
  for (const auto& u : outbox_.all(now)) send(u);
}

std::uint64_t CoordinatorLink::report(JobId job, std::optional<std::int32_t> attempt, JobState state,
                                      std::optional<std::int32_t> exit_code,
                                      std::optional<std::int32_t> signal, Time now, std::string reason,
                                      const JobUsage* usage) {
  wire::JobStatusUpdate u;
  if (usage != nullptr) {
    u.peak_memory_bytes = usage->peak_memory_bytes;
    u.cpu_time_ms = usage->cpu_time_ms;
  }
  u.node = hello_.node;
  u.job = job;
  u.state = state;
  u.exit_code = exit_code;
  u.signal = signal;
  u.time = now;
  u.reason = std::move(reason);
  u.attempt = attempt;
  u = outbox_.add(u, now);
  // Before registration the coordinator would refuse it; it goes out with the backlog.
  if (registered_) send(u);
  return u.seq;
}

std::uint64_t CoordinatorLink::report_end(JobId job, std::optional<std::int32_t> attempt, const JobEnd& end,
                                          JobUsage usage, Time now) {
  // Without a cgroup's count (none here, or v2 without memory.peak), what the keeper saw.
  if (!usage.peak_memory_bytes && end.max_rss_kb) usage.peak_memory_bytes = *end.max_rss_kb * 1024;
  if (!usage.cpu_time_ms && end.cpu_us) usage.cpu_time_ms = *end.cpu_us / 1000;
  log_event(LogLevel::kInfo, "job_exited",
            {{"job", std::to_string(job.value())},
             {"node", hello_.node},
             {"state", std::string(to_string(end.state))},
             {"exit_code", end.exit_code ? std::to_string(*end.exit_code) : std::string("-")},
             {"signal", end.signal ? std::to_string(*end.signal) : std::string("-")}});
  return report(job, attempt, end.state, end.exit_code, end.signal, now, end.reason, &usage);
}

void CoordinatorLink::on_timer(Time now) {
  if (!registered_) return;
  if (now - last_heartbeat_ >= heartbeat_interval_) {
    send(wire::Heartbeat{hello_.node, ++heartbeat_seq_, now});
    last_heartbeat_ = now;
  }
  for (const auto& u : outbox_.due(now, kResendPatience)) send(u);
}

void CoordinatorLink::heard() {
  heard_at_ = mono_;
  publish_lease();
}

void CoordinatorLink::start_lease() {
  if (!heard_at_) heard();
}

bool CoordinatorLink::lease_lapsed() const {
  return heard_at_ && mono_ - *heard_at_ > lease_;
}

void CoordinatorLink::publish_lease() {
  if (!heard_at_) return;
  if (auto st = host_.publish_lease(*heard_at_ + lease_); !st) {
    log_event(LogLevel::kWarning, "lease_file_failed",
              {{"node", hello_.node}, {"error", st.error().message}});
  }
}

}  // namespace fairway::agent
