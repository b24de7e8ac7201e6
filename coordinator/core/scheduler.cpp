// The Scheduler itself: building the machine, taking jobs in (admission.h decides), and the
// pass, which calls its collaborators in turn (reservations, arrays, limits, backfill).
#include "coordinator/core/scheduler.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <unordered_set>

#include "coordinator/core/backfill_engine.h"
#include "coordinator/core/billing_rate.h"
#include "coordinator/core/dependency_gate.h"
#include "coordinator/core/eligibility_limits.h"
#include "coordinator/core/maintenance_preemption.h"
#include "coordinator/core/maxps_limit.h"
#include "coordinator/core/node_constraints.h"
#include "coordinator/core/placement.h"
#include "coordinator/core/rank_order.h"
#include "shared/base/try.h"

namespace fairway {

Scheduler::Scheduler(Config config)
    : config_(std::move(config)),
      ledger_(config_.fairshare.half_life, config_.fairshare.window, config_.fairshare.window_fades,
              config_.billing.allocation_period),
      maxps_(config_.limits, config_.accounts),
      overuse_(config_),
      running_caps_(config_) {}

Result<std::unique_ptr<Scheduler>> Scheduler::create(const Config& config, NodeSource source) {
  std::unique_ptr<Scheduler> s(new Scheduler(config));
  FAIRWAY_TRY(s->init(source));
  return s;
}

Status Scheduler::init(NodeSource source) {
  node_source_ = source;
  maintenance_ = MaintenanceSchedule(config_);
  reservations_ = ProjectReservations(config_);
  if (config_.nodes.empty() && source == NodeSource::kConfig) {
    return invalid_argument("config declares no nodes");
  }
  for (const auto& n : config_.nodes) cluster_.add_node(n);
  std::vector<PartitionConfig> partitions = config_.partitions;
  if (partitions.empty()) {
    PartitionConfig batch;
    batch.name = "batch";
    batch.is_default = true;
    config_.partitions.push_back(batch);
    partitions.push_back(batch);
  }
  for (auto& p : config_.partitions) {
    std::vector<std::string> names = p.nodes;
    if (names.empty()) {
      for (const auto& n : config_.nodes) names.push_back(n.name);
    }
    FAIRWAY_TRY(cluster_.add_partition(p.name, names, p.placement));
    partition_priority_.push_back(p.priority);
  }
  preemption_ = OwnerPreemption(config_.partitions);
  for (const auto& a : config_.accounts) {
    ledger_.set_account_shares(a.name, a.shares);
    for (const auto& u : a.users) ledger_.association(a.name, u);
  }
  return ok_status();
}

Result<NodeIndex> Scheduler::add_node(NodeTopology topology) {
  if (cluster_.find_node(topology.name)) {
    return make_error(ErrorCode::kAlreadyExists, "node '" + topology.name + "' already exists");
  }
  if (node_source_ == NodeSource::kConfig || !config_.nodes.empty()) {
    return invalid_argument("node '" + topology.name + "' is not declared in the config's [[nodes]]");
  }
  if (topology.total_cores() < 1) {
    return invalid_argument("node '" + topology.name + "' reports no cores");
  }
  for (const auto& g : topology.gpus) {
    if (g.socket < 0 || static_cast<std::size_t>(g.socket) >= topology.sockets.size()) {
      return invalid_argument("node '" + topology.name + "': a GPU names socket " + std::to_string(g.socket) +
                              ", which does not exist");
    }
  }
  std::vector<PartitionIndex> member_of;
  for (std::size_t p = 0; p < config_.partitions.size(); ++p) {
    if (config_.partitions[p].nodes.empty()) {
      member_of.push_back(PartitionIndex(static_cast<std::uint32_t>(p)));
    }
  }
  const NodeIndex added = cluster_.add_node_later(std::move(topology), member_of);
  // A waiting job limited to named nodes or features may be able to use the new one.
  for (JobRecord* j : waiting_) {
    if (!j->allowed_nodes) continue;
    if (auto mask = allowed_nodes(cluster_, j->partition, j->spec, false)) {
      j->allowed_nodes = std::move(*mask);
    } else {
      j->allowed_nodes->resize(cluster_.node_count(), 0);
    }
  }
  return added;
}

void Scheduler::set_node_up(NodeIndex n, bool up) {
  cluster_.set_node_up(n, up);
}

JobRecord* Scheduler::find(JobId id) {
  auto it = jobs_.find(id.value());
  return it == jobs_.end() ? nullptr : &it->second;
}

const JobRecord* Scheduler::job(JobId id) const {
  auto it = jobs_.find(id.value());
  return it == jobs_.end() ? nullptr : &it->second;
}

std::optional<JobState> Scheduler::state_of(JobId id) const {
  const JobRecord* r = job(id);
  if (r != nullptr) return r->state;
  return arrays_.state_of(id);
}

Status Scheduler::set_reason(JobId id, std::string reason) {
  JobRecord* j = find(id);
  if (j == nullptr)
    return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  j->reason = std::move(reason);
  return ok_status();
}

Status Scheduler::set_outcome(JobId id, const JobOutcome& outcome) {
  JobRecord* j = find(id);
  if (j == nullptr)
    return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  j->outcome = outcome;
  return ok_status();
}

Result<std::vector<JobEffect>> Scheduler::on_event(JobId id, const JobEvent& event, Time now) {
  JobRecord* j = find(id);
  if (j == nullptr)
    return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  return lifecycle::apply(*j, event, now);
}

Status Scheduler::submit(JobSpec spec, Time now, std::span<const std::string> groups) {
  if (spec.partition.find(',') == std::string::npos) return admit(std::move(spec), now, groups);
  // -p a,b: the first listed partition that takes the job (Slurm weighs where it would
  // start first); it is then the job's one partition, stored and restored as such.
  std::optional<Status> first_refusal;
  const std::string list = spec.partition;
  for (std::size_t at = 0; at <= list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    JobSpec one = spec;
    one.partition = list.substr(at, comma - at);
    at = comma + 1;
    if (one.partition.empty()) continue;
    Status st = admit(std::move(one), now, groups);
    if (st) return st;
    if (!first_refusal) first_refusal = std::move(st);
  }
  if (first_refusal) return *first_refusal;
  return invalid_argument("job " + std::to_string(spec.id.value()) + ": partition list '" + list +
                          "' names no partition");
}

Status Scheduler::restore_waiting(JobSpec spec, Time eligible_since, std::int32_t requeue_count) {
  const JobId id = spec.id;
  FAIRWAY_TRY(readmit(std::move(spec), eligible_since));
  if (JobRecord* j = find(id)) j->requeue_count = requeue_count;
  return ok_status();
}

Status Scheduler::admit(JobSpec spec, Time now, std::optional<std::span<const std::string>> access_groups) {
  const LiveJobState live = [this](JobId id) { return state_of(id); };
  // Not FAIRWAY_TRY_ASSIGN: its extra move of the decision (a whole JobSpec) was a measurable
  // part of a trace replay's submissions.
  Result<AdmissionDecision> decision =
      admission::admit(std::move(spec), admission_view(live), now, access_groups);
  if (!decision) return std::unexpected(std::move(decision.error()));
  enter(std::move(*decision), now);
  return ok_status();
}

Status Scheduler::readmit(JobSpec spec, Time eligible_since) {
  const LiveJobState live = [this](JobId id) { return state_of(id); };
  Result<AdmissionDecision> decision = admission::restore(std::move(spec), admission_view(live));
  if (!decision) return std::unexpected(std::move(decision.error()));
  enter(std::move(*decision), eligible_since);
  return ok_status();
}

AdmissionView Scheduler::admission_view(const LiveJobState& live) const {
  return AdmissionView{config_, cluster_,   maxps_, maintenance_, reservations_,
                       arrays_, open_jobs_, jobs_,  live,         ended_};
}

void Scheduler::enter(AdmissionDecision&& d, Time eligible_since) {
  open_jobs_.add(d.spec, d.open_jobs_added);
  JobRecord rec;
  rec.partition = d.partition;
  rec.allowed_nodes = std::move(d.allowed_nodes);
  rec.footprint = d.footprint;
  rec.partition_priority = partition_priority_[d.partition.value()];
  rec.qos_priority = d.qos_priority;
  rec.priority_cap = d.priority_cap;
  rec.queue_target_time = d.queue_target_time;
  rec.association = ledger_.association(d.spec.account, d.spec.user);
  rec.eligible_since = eligible_since;
  rec.node_bin = d.node_bin;
  rec.state = d.spec.hold ? JobState::kHeld : JobState::kPending;
  if (d.spec.hold) rec.why.add(PendingReason::kHeld);
  rec.spec = std::move(d.spec);
  if (!rec.spec.array.empty()) {
    arrays_.add(std::move(rec));
    return;
  }
  // A restored task takes its place back from its array (a no-op for any other job).
  if (rec.spec.is_array_task()) arrays_.claim(rec.spec.id);
  queue(std::move(rec));
}

JobRecord& Scheduler::queue(JobRecord&& rec) {
  auto [it, inserted] = jobs_.emplace(rec.spec.id.value(), std::move(rec));
  assert(inserted);
  it->second.slot = waiting_.size();
  waiting_.push_back(&it->second);
  return it->second;
}

void Scheduler::remove_from(std::vector<JobRecord*>& list, JobRecord& j) {
  assert(j.slot < list.size() && list[j.slot] == &j);
  JobRecord* last = list.back();
  list[j.slot] = last;
  last->slot = j.slot;
  list.pop_back();
}

void Scheduler::start_job(JobRecord& j, Allocation alloc, Time now) {
  remove_from(waiting_, j);
  j.state = JobState::kRunning;
  j.start_time = now;
  if (j.spec.is_array_task()) arrays_.task_started(j.spec.id);
  cluster_.allocate(alloc);
  j.partition_amounts.clear();
  for (std::size_t p = 0; p < cluster_.partition_count(); ++p) {
    const PartitionIndex pi(static_cast<std::uint32_t>(p));
    const ResourceAmount a = cluster_.amount_in_partition(alloc, pi);
    if (a != ResourceAmount{}) j.partition_amounts.emplace_back(pi, a);
  }
  j.billing_rate = allocation_billing_rate(config_.billing, cluster_, alloc);
  // A project reservation's job is paid for by the reservation's own charge while it lasts.
  if (!j.spec.reservation.empty() && reservations_.pays_for(j.spec.reservation, now)) j.billing_rate = 0.0;
  if (restored_usage_) {
    restored_usage_->push_back({now, j.association, j.billing_rate});
  } else {
    ledger_.start_usage(j.association, j.billing_rate, now);
  }
  j.allocation = std::move(alloc);
  j.slot = running_.size();
  running_.push_back(&j);
}

std::unique_ptr<Scheduler> Scheduler::what_if(const SchedulerConfig& settings) const {
  std::unique_ptr<Scheduler> copy(new Scheduler(*this));
  for (JobRecord*& j : copy->waiting_) j = &copy->jobs_.at(j->spec.id.value());
  for (JobRecord*& j : copy->running_) j = &copy->jobs_.at(j->spec.id.value());
  copy->config_.scheduler = settings;
  if (settings.runtime_prediction == RuntimePrediction::kNone) {
    for (auto& [key, record] : copy->jobs_) record.predicted_runtime.reset();
  }
  return copy;
}

JobId Scheduler::unused_id() const {
  std::uint64_t id = 1;
  for (const auto& [existing, record] : jobs_) id = std::max(id, existing + 1);
  return JobId(id);
}

void Scheduler::forget(JobId id) {
  auto it = jobs_.find(id.value());
  if (it != jobs_.end() && is_terminal(it->second.state)) {
    ended_.record(id, it->second.state);
    jobs_.erase(it);
  }
}

// What the preemption collaborators may do to the jobs the scheduler owns.
class Scheduler::Host final : public PreemptionHost {
 public:
  explicit Host(Scheduler& s) : s_(s) {}
  JobRecord* find(JobId id) override { return s_.find(id); }
  Status requeue(JobId id, Time now) override { return s_.requeue(id, now); }
  Status finish(JobId id, JobState final_state, Time now) override { return s_.finish(id, final_state, now); }
  void start(JobRecord& j, Allocation alloc, Time now) override { s_.start_job(j, std::move(alloc), now); }

 private:
  Scheduler& s_;
};

Result<JobState> Scheduler::stop_preempted(JobId id, Time now) {
  Host host(*this);
  return OwnerPreemption::stop_victim(id, now, host);
}

PassResult Scheduler::schedule(Time now) {
  PassResult result;
  reservations_.advance(now, maintenance_, cluster_, ledger_, config_.billing, running_,
                        result.reservations_cancelled);
  Host host(*this);
  preempt_for_maintenance(maintenance_, cluster_, config_, running_, now, result, host);
  for (JobRecord& task :
       arrays_.make_tasks(waiting_, running_, cluster_, config_.scheduler.array_task_reservations)) {
    queue(std::move(task));
  }
  result.considered = waiting_.size();
  std::vector<JobRecord*> ordered;
  ordered.reserve(waiting_.size());
  const auto& target = config_.fairshare.target_share;
  const bool needs_factor = config_.priority.fairshare != 0 && !target;
  const bool fair_tree = needs_factor && config_.fairshare.mode == FairShareMode::kFairTree;
  const std::vector<double> tree_factors = fair_tree ? ledger_.fair_tree_factors(now) : std::vector<double>();
  const bool age_from_idle = config_.priority.age_from == AgeFrom::kIdle;
  const std::unordered_set<const JobRecord*> singleton_clear = singletons_free_to_go(waiting_, running_);
  const LiveJobState live = [this](JobId id) { return state_of(id); };
  std::vector<JobRecord*> cancel_now;
  std::optional<Time> next_begin;
  std::vector<JobRecord*> unranked;  // held, not begun, or waiting on a dependency
  for (JobRecord* j : waiting_) {
    if (j->state != JobState::kPending && j->state != JobState::kBlocked) {
      unranked.push_back(j);
      continue;
    }
    if ((j->spec.begin || !j->spec.dependencies.empty()) &&
        !ready_to_consider(*j, now, singleton_clear.contains(j), live, ended_, cancel_now)) {
      // A --begin still ahead: an event-driven caller passes again then.
      if (j->spec.begin && *j->spec.begin > now) {
        next_begin = next_begin ? min(*next_begin, *j->spec.begin) : *j->spec.begin;
      }
      unranked.push_back(j);
      continue;
    }
    if (config_.scheduler.runtime_prediction != RuntimePrediction::kNone) {
      j->predicted_runtime = runtimes_.predict(j->spec.user, j->spec.time_limit);
    }
    PriorityInputs in;
    // Maui: a blocked job does not age; it starts from 0 once it enters the idle queue.
    in.waited = age_from_idle ? now - j->idle_since.value_or(now) : now - j->eligible_since;
    in.fairshare_factor = fair_tree      ? tree_factors[j->association]
                          : needs_factor ? ledger_.factor(j->association, now)
                                         : 0.0;
    in.time_limit = j->planned_runtime();  // the expansion factor of the run as planned
    in.bypass_count = j->bypass_count;
    in.cores = j->spec.resources.total_cores();
    in.gpus = j->spec.resources.total_gpus();
    if (j->node_bin) in.node_bin_boost = config_.node_bins[*j->node_bin].aging_boost;
    j->overuse_tier.reset();
    if (overuse_.enabled()) {
      j->overuse_tier = overuse_.tier(j->spec.account, ledger_.account_allocation_usage(j->association, now));
      if (j->overuse_tier) in.overuse_penalty = overuse_.tier_config(*j->overuse_tier).priority_penalty;
    }
    if (target) {
      in.fairshare_minutes = ledger_.target_share_minutes(
          j->association, now, target->user_target_percent, target->user_minutes_per_percent,
          target->account_target_percent, target->account_minutes_per_percent);
    }
    // A partition of a registering cluster may have no nodes yet.
    const std::int64_t capacity = cluster_.partition(j->partition).capacity.cores;
    in.size_fraction =
        capacity > 0 ? static_cast<double>(j->spec.resources.total_cores()) / static_cast<double>(capacity)
                     : 0.0;
    in.partition_priority = j->partition_priority;
    in.qos_priority = j->qos_priority;
    in.cap = j->priority_cap;
    in.queue_target_time = j->queue_target_time;
    in.nice = j->spec.nice;
    j->priority = compute_priority(config_.priority, in);
    ordered.push_back(j);
  }
  for (JobRecord* j : cancel_now) {
    const JobId id = j->spec.id;
    const std::string reason = "cancelled: its dependency can never be satisfied (--kill-on-invalid-dep)";
    const JobId array = j->spec.array_job;
    if (!cancel(id, now)) continue;
    j->reason = reason;
    result.cancelled.push_back({id, reason});
    // A task's dependency is its array's: the tasks not made yet go with it, as Slurm
    // cancels the whole array (the made ones are in cancel_now too).
    if (array.value() != 0 && arrays_.contains(array)) (void)cancel_array(array);
  }
  rank(ordered);
  keep_rank_order(ordered, unranked);

  EligibilityLimits::HoldFn over_hard;
  if (maxps_.enabled()) {
    maxps_.count_running(running_, now);
    over_hard = [&](const JobRecord& j) { return maxps_.check_hard(j); };
  }
  const std::vector<JobRecord*> eligible =
      EligibilityLimits(config_.limits).filter(ordered, running_, over_hard);
  for (std::size_t rank = 0; rank < ordered.size(); ++rank) {
    JobRecord* j = ordered[rank];
    j->pass_rank = static_cast<std::uint32_t>(rank);
    if (j->state == JobState::kBlocked) {
      j->idle_since.reset();
    } else if (!j->idle_since) {
      j->idle_since = now;
    }
  }
  BackfillEngine::GateFn gate;
  if (maxps_.enabled()) maxps_.begin_pass(running_, eligible, now);
  if (running_caps_.enabled()) running_caps_.begin_pass(running_);
  if (maxps_.enabled() || running_caps_.enabled()) {
    gate = [&](const JobRecord& j) -> std::optional<PendingReason> {
      if (running_caps_.enabled()) {
        if (auto capped = running_caps_.check(j)) return capped;
      }
      return maxps_.enabled() ? maxps_.check(j) : std::nullopt;
    };
  }
  // Jobs of a project reservation run only on its nodes, which nobody else plans on: they
  // go first, and the engine plans the rest around the reservation.
  std::vector<JobRecord*> members, others;
  for (JobRecord* j : eligible) (j->spec.reservation.empty() ? others : members).push_back(j);
  if (!members.empty()) {
    reservations_.start_jobs(members, now, maintenance_, cluster_, [&](JobRecord& j, Allocation alloc) {
      result.started.push_back({j.spec.id, std::nullopt, std::nullopt, false});
      start_job(j, std::move(alloc), now);
    });
  }
  std::size_t lowest_waiting = 0;  // into others
  BackfillEngine engine(cluster_, BackfillPolicy::from_config(config_.scheduler));
  engine.set_maintenance(maintenance_, config_.partitions);
  result.reservations = engine.run(
      others, running_, now,
      [&](JobRecord& j, Allocation alloc) {
        // The best-ranked job still pending, skipping those started (this one too) and any
        // held or blocked: a start ahead of a pending job is a backfill start.
        while (lowest_waiting < others.size() &&
               (others[lowest_waiting] == &j || others[lowest_waiting]->state != JobState::kPending)) {
          ++lowest_waiting;
        }
        const bool backfilled =
            lowest_waiting < others.size() && others[lowest_waiting]->pass_rank < j.pass_rank;
        result.started.push_back({j.spec.id, j.reserved_start, j.reserved_at, backfilled});
        if (maxps_.enabled()) maxps_.on_start(j);
        if (running_caps_.enabled()) running_caps_.on_start(j);
        start_job(j, std::move(alloc), now);
      },
      gate);
  preemption_.preempt_for_owners(others, running_, config_.partitions, cluster_, now, result, host);
  if (maxps_.enabled()) result.recheck_at = maxps_.earliest_release(ordered, now);
  if (next_begin) result.recheck_at = result.recheck_at ? min(*result.recheck_at, *next_begin) : *next_begin;
  if (!reservations_.empty()) reservations_.observe_use(now, running_);
  // Reservations begin, end and run out of patience with no job event: pass again then.
  if (auto at = reservations_.next_event(now))
    result.recheck_at = result.recheck_at ? min(*result.recheck_at, *at) : *at;
  return result;
}

// The pass order: waiting jobs ranked by rank_order.h, and waiting_ kept in that order
// between passes so that the next ranking is mostly a check.
void Scheduler::rank(std::vector<JobRecord*>& ordered) const {
  std::vector<RankKey> keys;
  keys.reserve(ordered.size());
  for (JobRecord* j : ordered) {
    keys.push_back({preemption_.tier(j->partition), j->priority.total, j->spec.submit_time, j->spec.id, j});
  }
  sort_ranked(keys);
  for (std::size_t i = 0; i < keys.size(); ++i) ordered[i] = keys[i].job;
}

void Scheduler::keep_rank_order(std::span<JobRecord* const> ranked, std::span<JobRecord* const> unranked) {
  // A job cancelled in this pass has left waiting_ already.
  const auto still_waiting = [&](const JobRecord* j) {
    return j->slot < waiting_.size() && waiting_[j->slot] == j;
  };
  std::vector<JobRecord*> next;
  next.reserve(waiting_.size());
  for (JobRecord* j : ranked) {
    if (still_waiting(j)) next.push_back(j);
  }
  for (JobRecord* j : unranked) {
    if (still_waiting(j)) next.push_back(j);
  }
  // ranked and unranked are disjoint and together were all of waiting_.
  assert(next.size() == waiting_.size());
  if (next.size() != waiting_.size()) return;
  waiting_.swap(next);
  for (std::size_t i = 0; i < waiting_.size(); ++i) waiting_[i]->slot = i;
}

}  // namespace fairway
