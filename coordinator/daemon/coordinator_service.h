// The coordinator's behaviour without its sockets: decoded frames in, frames out, time as
// an argument. It owns the scheduling core, the job store and the node registry, and
// persists every accepted change before the reply that acknowledges it leaves.
// Not thread-safe: the daemon's one event-loop thread owns it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "coordinator/core/scheduler.h"
#include "coordinator/daemon/agent_channel.h"
#include "coordinator/daemon/agent_reports.h"
#include "coordinator/daemon/agent_turn.h"
#include "coordinator/daemon/client_identity.h"
#include "coordinator/daemon/client_tokens.h"
#include "coordinator/daemon/finished_jobs.h"
#include "coordinator/daemon/job_notices.h"
#include "coordinator/daemon/job_store.h"
#include "coordinator/daemon/job_tracking.h"
#include "coordinator/daemon/node_registry.h"
#include "coordinator/daemon/outgoing.h"
#include "coordinator/daemon/recovered_state.h"
#include "coordinator/daemon/service_context.h"
#include "coordinator/daemon/service_counters.h"
#include "coordinator/daemon/state_dir_lock.h"
#include "coordinator/daemon/step_book.h"
#include "coordinator/daemon/store_probe.h"
#include "coordinator/daemon/stored_request.h"
#include "coordinator/daemon/submit_rate_limiter.h"
#include "coordinator/daemon/turn_transaction.h"
#include "shared/config/config.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

// A job id as logs and messages write it.
inline std::string id_str(JobId id) {
  return std::to_string(id.value());
}

// The client API (client_submit, client_query, client_control, client_steps) and the agent
// side (AgentReports, node_loss.h, member_launches.h) work on a ServiceContext of its parts
// and ask the rest of the service through ServiceActions; the agent channel (AgentChannel)
// says whose each agent frame is and where a node's frames go.
class CoordinatorService : private ServiceActions {
 public:
  // Opens the store, builds the core (nodes from the config, or from registrations when
  // it declares none) and restores every job the store holds.
  // `auth`: how client callers are proven; null: munged and the system's user database.
  // `read_only_because`: the store cannot be written (a full disk; why, for users): the
  // service then serves queries but refuses new work, stores and acknowledges nothing, and
  // probes the store every few seconds (writable_again()).
  static Result<std::unique_ptr<CoordinatorService>> open(const Config& config, Time now,
                                                          std::unique_ptr<ClientAuthenticator> auth = nullptr,
                                                          std::string read_only_because = {},
                                                          std::optional<Time> mono = std::nullopt);

  // `route`: the connection's ROUTER routing id; `authenticated`: the node the sender's
  // CURVE key belongs to (empty without CURVE). With [security] agent_auth = "curve" the
  // frame is that node's whatever the routing id says, served only when the node it names
  // is that one, and frames to the node go to the connection its key last registered on
  // (AgentRoutes). Without CURVE the routing id is the node's name.
  void on_agent_frame(const std::string& route, std::string_view frame, Time now,
                      std::string_view authenticated = {});
  // `kernel`: the sender's uid/gid when the transport proves them (ipc://). Without it,
  // only an AuthenticatedRequest (MUNGE) is served.
  void on_client_frame(const std::string& peer, std::string_view frame, Time now,
                       const std::optional<net::PeerCredentials>& kernel = std::nullopt);
  // Liveness, unconfirmed jobs and the periodic pass.
  void on_timer(Time now);
  // Ends an event-loop turn: runs a pass when something changed (or `force_pass`), commits
  // the turn's writes, and only then releases the replies and launches.
  std::vector<Outgoing> end_turn(Time now, bool allow_pass = true);

  // The event loop's monotonic clock for this turn: node and job timeouts are measured on
  // it. Never set (synchronous tests): the wall-clock `now` serves as both.
  void set_monotonic(Time mono) { mono_ = mono; }

  bool pass_wanted() const { return dirty_ && !probe_.read_only(); }
  bool read_only() const { return probe_.read_only(); }
  // Read-only, and a probe write just succeeded: reopen the service normally.
  bool writable_again() const { return probe_.writable_again(); }
  // Once a commit has failed the service is stopped for good (fail-stop): end_turn sends
  // nothing more and the daemon must exit and recover from the store. Holds the error then.
  const Status& failed() const { return txn_.stopped(); }
  // Fault injection for tests: the next commit fails as a full disk would.
  void fail_next_commit_for_test() { store_->fail_next_commit_for_test(); }
  // ... or the n-th store operation from now: a begin, a write or a commit.
  void fail_store_operation_for_test(int n) { store_->fail_operation_for_test(n); }
  const ServiceCounters& counters() const { return counters_; }
  // Every metric, as `fairway diag` and the Prometheus endpoint show them.
  wire::MetricsReply metrics(Time now) const;
  // For systemd's STATUS=: "12 jobs waiting, 3 running; 4 of 5 nodes up".
  std::string status_line() const;
  const Scheduler& scheduler() const { return *scheduler_; }
  const NodeRegistry& nodes() const { return registry_; }

 private:
  CoordinatorService(const Config& config, StateDirLock lock, std::unique_ptr<Scheduler> scheduler,
                     std::unique_ptr<JobStore> store, std::unique_ptr<ClientAuthenticator> auth,
                     std::string read_only_because, Time now);

  AgentTurn agent_turn(Time now) { return {context(), finished_, now, mono(now), probe_.read_only()}; }
  // job_effects.cpp: carries out what the core's lifecycle decided for a job
  // (job_lifecycle.h), in order; false when one failed (the rest are not done).
  bool carry_out(JobId id, const std::vector<JobEffect>& effects, Time now);
  // Applies `event` to job `id` in the core and carries out its effects.
  bool on_job_event(JobId id, const JobEvent& event, Time now) override;

  // Counts a decoded frame in counters_.messages.
  void count_message(const wire::Message& m);

  // Clients (client_requests.cpp): each request goes to the client API's function for it.
  void serve_client(const std::string& peer, const wire::Message& m, const Caller& caller, Time now);
  // What the client API, the array rows (array_rows.h) and the agent side work on: this
  // service's parts.
  ServiceContext context() {
    return {config_,   *scheduler_, *store_,       registry_, tracking_,
            finished_, tokens_,     rate_limiter_, counters_, *this};
  }

  // The job's request as the store keeps it (job_persistence.cpp); an error names the job.
  Result<wire::SubmitRequest> stored_request(JobId id) const override;
  void run_pass(Time now);
  void launch(JobId id, Time now);
  // job_persistence.cpp: the rows of `fairway run`'s steps (client_steps.cpp) for sacct (ID.N):
  // stored when they start, ended by their srun's report, or ended with the job when it
  // stops with steps still open (release_members, member_launches.h).
  void persist_step(const StoredStep& step) override;

  // Writes go into the turn's transaction (TurnTransaction), opened on first use; none
  // while the store is read-only. A failed write (or begin) fails the turn: end_turn()
  // answers nothing of it and stops (fail-stop).
  bool write(const Status& st, std::string_view what, JobId id) override { return txn_.write(st, what, id); }
  bool ensure_txn() override { return !probe_.read_only() && txn_.open(); }
  void fail_turn() override { txn_.fail(); }
  void persist(JobId id) override;
  void mark_terminal(JobId id, Time now) override;
  void changed() override { dirty_ = true; }

  void reply(Channel ch, const std::string& peer, const wire::Message& m) override;
  void error_reply(Channel ch, const std::string& peer, ErrorCode code, std::string message);

  Config config_;
  StateDirLock lock_;  // held while the service lives: one coordinator per state directory
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<JobStore> store_;
  NodeRegistry registry_;
  SubmitRateLimiter rate_limiter_;
  std::unique_ptr<ClientAuthenticator> auth_;
  std::unordered_map<std::uint64_t, JobTracking> tracking_;
  ClientTokens tokens_;
  // Registrations, heartbeats and status updates; what a restart left for nodes to return.
  AgentReports reports_;

  std::optional<Time> mono_;  // set_monotonic()
  Time mono(Time now) const { return mono_.value_or(now); }
  std::vector<Outgoing> turn_replies_;
  // Whose each agent frame is, and where a node's frames go (agent_auth = "curve": by key).
  AgentChannel agents_{config_.security.agent_auth == AgentAuth::kCurve};
  std::vector<Outgoing> turn_launches_;
  bool dirty_ = true;
  Time last_pass_;
  std::optional<Time> recheck_at_;  // the last pass's PassResult::recheck_at
  ServiceCounters counters_;

  // Collaborators that own their state (docs/architecture.md 4.1.1); they hold references
  // to the members above, so they come after them.
  TurnTransaction txn_{*store_, counters_};  // the turn's writes, commit-then-reply, fail-stop
  StoreProbe probe_;                         // read-only mode and its probe
  FinishedJobs finished_{config_};           // ended jobs' views and the store's purge
  JobNotices notices_;                       // --mail-type mail
};

}  // namespace fairway::daemon
