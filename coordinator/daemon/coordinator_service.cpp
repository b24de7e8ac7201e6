#include "coordinator/daemon/coordinator_service.h"

#include <chrono>

#include <algorithm>
#include <csignal>
#include <ctime>
#include <filesystem>

#include <unistd.h>
#include <unordered_set>

#include "coordinator/daemon/array_rows.h"
#include "coordinator/daemon/cluster_reports.h"
#include "coordinator/daemon/job_nodes.h"
#include "coordinator/daemon/job_views.h"
#include "coordinator/daemon/known_nodes.h"
#include "coordinator/daemon/member_launches.h"
#include "coordinator/daemon/node_loss.h"
#include "coordinator/daemon/program_mailer.h"
#include "shared/base/log.h"
#include "shared/base/private_files.h"
#include "shared/base/try.h"
#include "shared/wire/codec.h"

namespace fairway::daemon {
namespace {

// For reasons users read in `show job`: UTC, so it reads the same from any login node.
std::string utc_time(Time t) {
  const std::time_t secs = static_cast<std::time_t>(t.seconds());
  std::tm tm{};
  char buf[32];
  if (gmtime_r(&secs, &tm) == nullptr) return std::to_string(t.seconds());
  const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return n == 0 ? std::to_string(t.seconds()) : std::string(buf, n);
}

}  // namespace

CoordinatorService::CoordinatorService(const Config& config, StateDirLock lock,
                                       std::unique_ptr<Scheduler> scheduler, std::unique_ptr<JobStore> store,
                                       std::unique_ptr<ClientAuthenticator> auth,
                                       std::string read_only_because, Time now)
    : config_(config),
      lock_(std::move(lock)),
      scheduler_(std::move(scheduler)),
      store_(std::move(store)),
      rate_limiter_(config.coordinator.submit_burst, config.coordinator.submit_refill_per_s),
      auth_(auth ? std::move(auth) : make_system_authenticator(config.security)),
      probe_(*store_, std::move(read_only_because), now),
      notices_(std::make_unique<ProgramMailer>(config_.coordinator.mail_program), *scheduler_) {}

Result<std::unique_ptr<CoordinatorService>> CoordinatorService::open(
    const Config& config, Time now, std::unique_ptr<ClientAuthenticator> auth, std::string read_only_because,
    std::optional<Time> mono) {
  (void)make_private_dir(config.coordinator.state_dir);  // 0700: JobStore::open reports a failure
  FAIRWAY_TRY_ASSIGN(lock, StateDirLock::acquire(config.coordinator.state_dir));
  FAIRWAY_TRY_ASSIGN(store, JobStore::open(config.coordinator.state_dir));
  store->raise_next_job_id(static_cast<std::uint64_t>(config.coordinator.first_job_id));
  const NodeSource source = config.nodes.empty() ? NodeSource::kRegistration : NodeSource::kConfig;
  FAIRWAY_TRY_ASSIGN(scheduler, Scheduler::create(config, source));
  std::unique_ptr<CoordinatorService> s(new CoordinatorService(config, std::move(lock), std::move(scheduler),
                                                               std::move(store), std::move(auth),
                                                               std::move(read_only_because), now));
  s->counters_.started_at = now;
  // The user the coordinator runs as names the reasons it sets itself (Slurm's SlurmUser).
  const net::PeerCredentials self{static_cast<std::uint32_t>(::geteuid()),
                                  static_cast<std::uint32_t>(::getegid()), ::getpid()};
  ReasonSetter system_user{std::to_string(self.uid), self.uid};
  if (auto me = s->auth_->from_kernel(self)) system_user = {me->user, me->uid};
  s->mono_ = mono;  // before recovery: it starts the restored jobs' timeouts
  FAIRWAY_TRY_ASSIGN(recovered,
                     recover_from(*s->store_, s->config_, *s->scheduler_, system_user, now, s->mono(now)));
  s->registry_ = std::move(recovered.nodes);
  s->tokens_ = std::move(recovered.tokens);
  s->tracking_ = std::move(recovered.tracking);
  s->finished_ = std::move(recovered.finished_jobs);
  for (std::uint64_t array : recovered.arrays_begin_mailed) s->notices_.array_begin_mailed(JobId(array));
  s->reports_ = AgentReports(std::move(recovered.awaiting_nodes), std::move(recovered.stored_drains));
  s->last_pass_ = now;
  log_event(LogLevel::kInfo, "coordinator_recovered",
            {{"waiting", std::to_string(recovered.waiting)},
             {"running", std::to_string(recovered.running)},
             {"finished", std::to_string(recovered.finished)}});
  return s;
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point began) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

}  // namespace

void CoordinatorService::count_message(const wire::Message& m) {
  const auto type = static_cast<std::size_t>(wire::message_type(m));
  if (type < counters_.messages.size()) ++counters_.messages[type];
}

// ---- Agents -----------------------------------------------------------------------------

void CoordinatorService::on_agent_frame(const std::string& route, std::string_view frame, Time now,
                                        std::string_view authenticated) {
  auto admitted = agents_.admit(route, frame, authenticated, counters_, turn_replies_);
  if (!admitted) return;
  count_message(admitted->message);
  AgentTurn turn = agent_turn(now);
  reports_.serve(turn, admitted->node, admitted->message);
}

void CoordinatorService::on_timer(Time now) {
  if (probe_.read_only()) {
    // Nothing that would have to be stored (requeues of lost nodes' jobs, passes) happens
    // now: the service that reopens decides with what the store holds.
    probe_.probe(now);
    return;
  }
  finished_.purge_expired(now, *store_, txn_, *scheduler_);
  AgentTurn turn = agent_turn(now);
  watch_nodes(turn);
  notices_.time_limits(now);
  notices_.reap();
  if (now - last_pass_ >= config_.coordinator.pass_interval) dirty_ = true;
  // A time the core asked to be looked at again (a --begin, a reservation's start or end).
  if (recheck_at_ && now >= *recheck_at_) dirty_ = true;
}

// ---- Passes and launches ----------------------------------------------------------------

void CoordinatorService::run_pass(Time now) {
  const auto began = std::chrono::steady_clock::now();
  const PassResult r = scheduler_->schedule(now);
  counters_.pass_seconds.observe(seconds_since(began));
  counters_.last_pass_at = now;
  ++counters_.passes;
  counters_.considered += r.considered;
  counters_.pass_started += r.started.size();
  for (const JobStart& s : r.started) counters_.backfill_started += s.backfilled ? 1 : 0;
  counters_.reservations += r.reservations;
  counters_.last_considered = r.considered;
  counters_.last_started = r.started.size();
  counters_.last_reservations = r.reservations;
  last_pass_ = now;
  recheck_at_ = r.recheck_at;
  for (const ReservationCancellation& c : r.reservations_cancelled) {
    log_event(LogLevel::kWarning, "reservation_cancelled", {{"reservation", c.name}, {"reason", c.reason}});
    // Kept, so that a restarted coordinator neither gives the nodes back to the project
    // nor charges it again.
    if (ensure_txn()) {
      (void)write(
          store_->set_meta(std::string(kReservationCancelledPrefix) + c.name, std::to_string(c.at.seconds())),
          "remember reservation " + c.name + " cancelled", JobId());
    }
  }
  // The core already requeued these (a maintenance window reached a killable job) and
  // freed their cores; their processes must stop before the window.
  ServiceContext ctx = context();
  for (const JobPreemption& p : r.preempted) {
    JobTracking& t = tracking_[p.id.value()];
    signal_job(ctx, p.id, p.allocation, SIGTERM);
    log_event(LogLevel::kWarning, "job_preempted",
              {{"job", std::to_string(p.id.value())},
               {"node", head_node(p.allocation, scheduler_->cluster())},
               {"reason", p.reason}});
    release_members(ctx, t, p.id, member_nodes(p.allocation, scheduler_->cluster()), now);
    persist(p.id);
  }
  // Owner partitions: these keep their cores until their agent reports them gone; then
  // stop_preempted requeues them and the owner starts in that turn's pass.
  for (const PreemptionOrder& p : r.preempting) {
    const JobRecord* victim = scheduler_->job(p.victim);
    (void)scheduler_->set_reason(p.victim, "preempted by job " + id_str(p.by) + " (partition " +
                                               p.by_partition + ") at " + utc_time(now));
    if (victim != nullptr) signal_job(ctx, p.victim, victim->allocation, SIGTERM, p.grace);
    ++counters_.preempted;
    log_event(LogLevel::kWarning, "job_preempting",
              {{"job", id_str(p.victim)},
               {"node", head_node(*scheduler_, p.victim)},
               {"by", id_str(p.by)},
               {"partition", p.by_partition},
               {"grace_s", std::to_string(p.grace.count())},
               {"then", p.requeue ? "requeue" : "end"}});
  }
  for (const JobCancellation& c : r.cancelled) {
    // A task made for this pass has no row yet: it gets one, ended, like any job.
    if (const JobRecord* rec = scheduler_->job(c.id); rec != nullptr && rec->spec.is_array_task()) {
      (void)adopt_array_task(context(), c.id);
    }
    mark_terminal(c.id, now);
    log_event(LogLevel::kInfo, "job_cancelled", {{"job", id_str(c.id)}, {"reason", c.reason}});
  }
  for (const JobStart& s : r.started) launch(s.id, now);
}

std::vector<Outgoing> CoordinatorService::end_turn(Time now, bool allow_pass) {
  if (!txn_.stopped()) return {};
  if (dirty_ && allow_pass && !probe_.read_only()) {
    dirty_ = false;
    run_pass(now);
  }
  for (const ArrayJob& a : end_arrays(context(), now)) {
    notices_.array_ended(a);
    // Its entry (a query by its id lists its tasks) ages out with the finished jobs'; an
    // array whose row was never written has none, and only takes its place.
    if (tracking_.erase(a.id().value()) > 0) finished_.keep(a.id()).array = true;
    finished_.ended(a.id());
  }
  // Commit, then reply: a turn whose commit failed answers nothing, and the service stops.
  if (!txn_.commit()) {
    turn_replies_.clear();
    turn_launches_.clear();
    return {};
  }
  std::vector<Outgoing> out = std::move(turn_replies_);
  out.insert(out.end(), std::make_move_iterator(turn_launches_.begin()),
             std::make_move_iterator(turn_launches_.end()));
  turn_replies_.clear();
  turn_launches_.clear();
  agents_.address(out);
  return out;
}

// ---- Replies ----------------------------------------------------------------------------

void CoordinatorService::reply(Channel ch, const std::string& peer, const wire::Message& m) {
  turn_replies_.push_back({ch, peer, wire::encode(m), {}});
}

void CoordinatorService::error_reply(Channel ch, const std::string& peer, ErrorCode code,
                                     std::string message) {
  reply(ch, peer, wire::ErrorReply{code, std::move(message)});
}

// ---- Monitoring: the metrics snapshot (fairway diag, the Prometheus endpoint) and
// systemd's status line ---------------------------------------------------------------------

wire::MetricsReply CoordinatorService::metrics(Time now) const {
  // The Prometheus endpoint cannot tell who scrapes it: under private_data, nobody's usage.
  return metrics_report({*scheduler_, registry_, counters_, now}, !config_.security.private_data);
}

std::string CoordinatorService::status_line() const {
  std::size_t up = 0;
  for (const NodeEntry& n : registry_.nodes()) up += n.liveness == NodeLiveness::kUp ? 1 : 0;
  std::string line = std::to_string(scheduler_->waiting().size()) + " jobs waiting, " +
                     std::to_string(scheduler_->running().size()) + " running; " + std::to_string(up) +
                     " of " + std::to_string(registry_.nodes().size()) + " nodes up";
  if (probe_.read_only()) line += "; READ-ONLY: " + probe_.why();
  return line;
}

}  // namespace fairway::daemon
