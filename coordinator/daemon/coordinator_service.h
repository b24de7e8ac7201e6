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
#include "coordinator/daemon/job_mail.h"
#include "coordinator/daemon/job_store.h"
#include "coordinator/daemon/job_tracking.h"
#include "coordinator/daemon/node_registry.h"
#include "coordinator/daemon/outgoing.h"
#include "coordinator/daemon/recovered_state.h"
#include "coordinator/daemon/service_context.h"
#include "coordinator/daemon/service_counters.h"
#include "coordinator/daemon/state_dir_lock.h"
#include "coordinator/daemon/step_book.h"
#include "coordinator/daemon/stored_request.h"
#include "coordinator/daemon/submit_rate_limiter.h"
#include "shared/config/config.h"
#include "shared/wire/messages.h"

namespace fairway::daemon {

// A job id as logs and messages write it.
inline std::string id_str(JobId id) {
  return std::to_string(id.value());
}

// Finished jobs one turn's purge deletes at most (keep_finished), and kept runs of purged
// jobs it forgets at most.
inline constexpr std::int64_t kPurgeBatch = 2000;
// How long a finished run counts for fair-share (config.fairshare's window, else twenty
// half-lives of decay; at least the longest allocation period): a purged job's run is kept
// that long after it ended.
Duration usage_horizon(const Config& config);

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

  bool pass_wanted() const { return dirty_ && read_only_.empty(); }
  bool read_only() const { return !read_only_.empty(); }
  // Read-only, and a probe write just succeeded: reopen the service normally.
  bool writable_again() const { return writable_again_; }
  // Once a commit has failed the service is stopped for good (fail-stop): end_turn sends
  // nothing more and the daemon must exit and recover from the store. Holds the error then.
  const Status& failed() const { return failed_; }
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
                     std::unique_ptr<JobStore> store, std::unique_ptr<ClientAuthenticator> auth);

  // The service's parts and actions, for the client API and the agent side.
  ServiceContext context();
  AgentTurn agent_turn(Time now) { return {context(), finished_order_, now, mono(now), !read_only_.empty()}; }
  // job_effects.cpp: carries out what the core's lifecycle decided for a job
  // (job_lifecycle.h), in order; false when one failed (the rest are not done).
  bool carry_out(JobId id, const std::vector<JobEffect>& effects, Time now);
  // Applies `event` to job `id` in the core and carries out its effects.
  bool on_job_event(JobId id, const JobEvent& event, Time now) override;

  // Drops finished jobs older than [coordinator] keep_finished from the store, hourly.
  void purge_expired(Time now);
  std::optional<Time> last_purge_;

  // Counts a decoded frame in counters_.messages.
  void count_message(const wire::Message& m);

  // Clients (client_requests.cpp): each request goes to the client API's function for it.
  void serve_client(const std::string& peer, const wire::Message& m, const Caller& caller, Time now);

  // The job's request as the store keeps it (job_persistence.cpp); an error names the job.
  Result<wire::SubmitRequest> stored_request(JobId id) const override;
  // What a finished job's run used as fair-share charges it: its cores, its memory
  // (`resources` with its partition's default) and the types of its GPUs on nodes still
  // known (a node gone bills its cores only). Recovery charges it; a purge keeps it.
  StoredUsageRun usage_run_of(const StoredJob& s, const std::string& account, const std::string& user,
                              const std::string& reservation, const ResourceRequest& resources) const;

  // Job arrays (job_arrays.cpp). A made task gets its own row and tracking when it starts
  // or is acted on alone; false when its row could not be written.
  bool adopt_array_task(JobId id) override;
  // The array's row: waiting or held, or (`ended`) what it ended as.
  void persist_array(const ArrayJob& a, std::optional<Time> ended) override;
  // Arrays whose last task ended: their rows end, their tracking goes.
  void end_arrays(Time now);

  void run_pass(Time now);
  void launch(JobId id, Time now);
  // job_steps.cpp: the rows of `fairway run`'s steps (client_steps.cpp) for sacct (ID.N):
  // stored when they start, ended by their srun's report, or ended with the job when it
  // stops with steps still open (release_members, member_launches.h).
  void persist_step(const StoredStep& step) override;

  // Writes go into the turn's transaction, opened on first use. A failed write (or begin)
  // fails the turn: end_turn() answers nothing of it and stops (fail-stop).
  bool write(const Status& st, std::string_view what, JobId id) override;
  bool ensure_txn() override;
  void persist(JobId id) override;
  void mark_terminal(JobId id, Time now) override;
  void trim_finished();
  void changed() override { dirty_ = true; }

  void reply(Channel ch, const std::string& peer, const wire::Message& m) override;
  void error_reply(Channel ch, const std::string& peer, ErrorCode code, std::string message);

  Config config_;
  JobMailer mailer_{config_.coordinator.mail_program};
  // sbatch --mail-type: mails the job's user when `event` is one it asked for; at its end
  // (kMailEnd) a failed job also counts as kMailFail (job_mail.cpp).
  // `run_time`: how long it has run, for the mails sent while it runs (time limits).
  void mail_about(JobId id, JobMailEvent event, std::optional<Duration> run_time = std::nullopt);
  // An array mails as one job: at its end, END (or FAIL) with what it ended as.
  void mail_array_end(const ArrayJob& a);
  void send_mail(const JobMailFacts& f);
  // --mail-type=TIME_LIMIT, _90, _80, _50: running jobs that crossed those shares of their limit.
  void mail_time_limits(Time now);
  StateDirLock lock_;  // held while the service lives: one coordinator per state directory
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<JobStore> store_;
  NodeRegistry registry_;
  SubmitRateLimiter rate_limiter_;
  std::unique_ptr<ClientAuthenticator> auth_;
  std::unordered_map<std::uint64_t, JobTracking> tracking_;
  ClientTokens tokens_;
  std::deque<std::uint64_t> finished_order_;  // terminal jobs, oldest first
  // Registrations, heartbeats and status updates; what a restart left for nodes to return.
  AgentReports reports_;

  bool in_txn_ = false;
  bool txn_failed_ = false;
  Status failed_ = ok_status();
  std::optional<Time> mono_;  // set_monotonic()
  Time mono(Time now) const { return mono_.value_or(now); }
  std::string read_only_;  // why the store cannot be written; empty: it can
  bool writable_again_ = false;
  Time next_probe_;
  static constexpr Duration kStoreProbeInterval = Duration::seconds(5);  // read-only retries
  void probe_store(Time now);
  std::vector<Outgoing> turn_replies_;
  // Whose each agent frame is, and where a node's frames go (agent_auth = "curve": by key).
  AgentChannel agents_{config_.security.agent_auth == AgentAuth::kCurve};
  std::vector<Outgoing> turn_launches_;
  bool dirty_ = true;
  Time last_pass_;
  std::optional<Time> recheck_at_;  // the last pass's PassResult::recheck_at
  ServiceCounters counters_;
};

}  // namespace fairway::daemon
