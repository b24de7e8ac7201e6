#include "coordinator/core/scheduler.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <unordered_set>

#include "coordinator/core/access_rules.h"
#include "coordinator/core/backfill_engine.h"
#include "coordinator/core/billing_rate.h"
#include "coordinator/core/eligibility_limits.h"
#include "coordinator/core/maxps_limit.h"
#include "coordinator/core/node_count_bins.h"
#include "coordinator/core/placement.h"
#include "coordinator/core/request_fit.h"
#include "shared/base/duration_format.h"
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
    partition_tier_.push_back(p.priority_tier);
  }
  for (const auto& victim : config_.partitions) {
    for (const auto& owner : config_.partitions) {
      if (victim.preempt != PreemptMode::kOff && owner.priority_tier > victim.priority_tier) {
        preemption_configured_ = true;
      }
    }
  }
  for (const auto& a : config_.accounts) {
    ledger_.set_account_shares(a.name, a.shares);
    for (const auto& u : a.users) ledger_.association(a.name, u);
  }
  return ok_status();
}

JobRecord* Scheduler::find(JobId id) {
  auto it = jobs_.find(id.value());
  return it == jobs_.end() ? nullptr : &it->second;
}

const JobRecord* Scheduler::job(JobId id) const {
  auto it = jobs_.find(id.value());
  return it == jobs_.end() ? nullptr : &it->second;
}

Status Scheduler::set_reason(JobId id, std::string reason) {
  JobRecord* j = find(id);
  if (j == nullptr) return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  j->reason = std::move(reason);
  return ok_status();
}

Status Scheduler::set_outcome(JobId id, const JobOutcome& outcome) {
  JobRecord* j = find(id);
  if (j == nullptr) return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  j->outcome = outcome;
  return ok_status();
}

Result<std::vector<JobEffect>> Scheduler::on_event(JobId id, const JobEvent& event, Time now) {
  JobRecord* j = find(id);
  if (j == nullptr) return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  return lifecycle::apply(*j, event, now);
}

Status Scheduler::submit(JobSpec spec, Time now, std::span<const std::string> groups) {
  if (spec.partition.find(',') == std::string::npos) return admit(std::move(spec), now, false, groups);
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
    Status st = admit(std::move(one), now, false, groups);
    if (st) return st;
    if (!first_refusal) first_refusal = std::move(st);
  }
  if (first_refusal) return *first_refusal;
  return invalid_argument("job " + std::to_string(spec.id.value()) + ": partition list '" + list + "' names no partition");
}

Status Scheduler::restore_waiting(JobSpec spec, Time eligible_since, std::int32_t requeue_count) {
  const JobId id = spec.id;
  FAIRWAY_TRY(admit(std::move(spec), eligible_since, true));
  if (JobRecord* j = find(id)) j->requeue_count = requeue_count;
  return ok_status();
}

Status Scheduler::admit(JobSpec spec, Time now, bool restoring,
                        std::optional<std::span<const std::string>> access_groups) {
  const std::string job = "job " + std::to_string(spec.id.value());
  if (jobs_.contains(spec.id.value()) || arrays_.contains(spec.id)) {
    return make_error(ErrorCode::kAlreadyExists, job + ": id already in use");
  }
  FAIRWAY_TRY_ASSIGN(added, arrays_.jobs_added_by(spec, config_.limits.max_array_size));
  const ResourceRequest& r = spec.resources;
  if (r.nodes < 0) return invalid_argument(job + ": nodes must be >= 0, got " + std::to_string(r.nodes));
  if (r.cores < 1) return invalid_argument(job + ": cores must be >= 1, got " + std::to_string(r.cores));
  if (r.gpus < 0) return invalid_argument(job + ": gpus must be >= 0, got " + std::to_string(r.gpus));
  if (spec.time_limit < Duration()) {
    return invalid_argument(job + ": time_limit must be >= 0, got " +
                            std::to_string(spec.time_limit.count()) + " s");
  }
  if (!restoring) {
    const LiveJobState live = [this](JobId id) { return state_of(id); };
    if (const auto bad = unknown_dependency(spec, live, ended_)) {
      return invalid_argument(job + ": --dependency names job " + std::to_string(bad->value()) +
                              (*bad == spec.id ? ", itself" : ", which does not exist"));
    }
  }

  const PartitionConfig* pc = partition_for(spec);
  if (pc == nullptr) return invalid_argument(job + ": partition '" + spec.partition + "' does not exist");
  spec.partition = pc->name;
  // No limit stated (0): the partition's default_time, as Slurm's DefaultTime (else MaxTime).
  if (!restoring && spec.time_limit == Duration()) spec.time_limit = pc->default_time;
  // Palmetto's interact partition lowers an over-long request rather than refusing it.
  if (pc->clamp_time_limit && spec.time_limit > pc->max_time) spec.time_limit = pc->max_time;
  double qos_priority = 0;
  std::optional<double> priority_cap;
  std::optional<Duration> queue_target_time;
  // "normal" is Slurm's QOS for a job that names none: where no QOS of that name is
  // configured it asks for the default, so its limits still apply.
  if (spec.qos == "normal" && std::none_of(config_.qos.begin(), config_.qos.end(),
                                           [](const QosConfig& q) { return q.name == "normal"; })) {
    spec.qos.clear();
  }
  if (spec.qos.empty()) spec.qos = pc->default_qos;
  if (!spec.qos.empty()) {
    const QosConfig* qc = nullptr;
    for (const auto& q : config_.qos) {
      if (q.name == spec.qos) qc = &q;
    }
    if (qc == nullptr) return invalid_argument(job + ": qos '" + spec.qos + "' does not exist");
    if (spec.time_limit > qc->max_time) {
      return invalid_argument(job + ": time_limit " + format_walltime(spec.time_limit) +
                              " exceeds qos '" + qc->name + "' max_time " + format_walltime(qc->max_time));
    }
    if (access_groups && !restoring) {
      const AccessRequest who{spec.user, spec.account, spec.qos, spec.uid, *access_groups};
      if (auto st = check_qos_access(*qc, who); !st) return std::unexpected(st.error().with_context(job));
    }
    qos_priority = qc->priority;
    priority_cap = qc->max_priority;
    queue_target_time = qc->queue_target_time;
  }
  if (access_groups && !restoring) {
    const AccessRequest who{spec.user, spec.account, spec.qos, spec.uid, *access_groups};
    if (auto st = check_partition_access(*pc, who); !st) return std::unexpected(st.error().with_context(job));
  }
  if (spec.time_limit > pc->max_time) {
    return invalid_argument(job + ": time_limit " + format_walltime(spec.time_limit) +
                            " exceeds partition '" + pc->name + "' max_time " + format_walltime(pc->max_time));
  }
  const PartitionIndex pidx = *cluster_.find_partition(pc->name);
  spec.resources = with_default_memory(spec);
  if (!spec.reservation.empty()) {
    auto st = restoring ? reservations_.check_known(spec.reservation, maintenance_)
                        : reservations_.check(spec, pidx, now, maintenance_, cluster_);
    if (!st) return std::unexpected(st.error().with_context(job));
  }
  // Above one node's cores, or always with allocation_unit = "node", whole nodes: the
  // request becomes N nodes of that size, so the job is placed and billed as whole nodes.
  const std::int32_t node_cores = cluster_.partition(pidx).largest_node_cores;
  if (pc->placement.allocation_unit == AllocationUnit::kNode ||
      (pc->whole_nodes_above_node_size && r.nodes == 0 && r.gpus == 0 && r.cores > node_cores)) {
    spec.resources = whole_node_request(cluster_.partition(pidx), r);
  } else if (spec.exclusive) {
    // --exclusive: whole nodes of the partition's largest size, as allocation_unit = node.
    spec.resources = whole_node_request(cluster_.partition(pidx), r);
  }
  // GPUs spread over nodes need a core on each node they come from (gpus_toomany: --gpus=3
  // with one task on two-GPU nodes); as Slurm, the job gets those cores rather than
  // waiting forever for a placement that cannot exist.
  if (spec.resources.nodes == 0 && spec.resources.gpus > 0 && cluster_.partition(pidx).largest_node_gpus > 0) {
    const std::int32_t per_node = cluster_.partition(pidx).largest_node_gpus;
    const std::int32_t gpu_nodes = (spec.resources.gpus + per_node - 1) / per_node;
    spec.resources.cores = std::max(spec.resources.cores, gpu_nodes);
  }
  std::optional<NodeMask> allowed;
  if (has_node_constraints(spec)) {
    auto mask = allowed_nodes(cluster_, pidx, spec, !restoring);
    if (!mask) return std::unexpected(mask.error().with_context(job));
    if (!restoring) {
      if (auto st = fits_on_nodes(cluster_, *mask, spec.resources); !st) {
        return std::unexpected(st.error().with_context(job));
      }
    }
    allowed = std::move(*mask);
  }
  const std::optional<std::size_t> bin =
      find_node_bin(config_.node_bins, requested_nodes(spec.resources, node_cores));
  if (!restoring && bin && spec.time_limit > config_.node_bins[*bin].max_time) {
    const NodeBinConfig& b = config_.node_bins[*bin];
    return invalid_argument(job + ": time_limit " + format_walltime(spec.time_limit) + " exceeds node bin '" +
                            b.name + "' (" + std::to_string(requested_nodes(spec.resources, node_cores)) +
                            " nodes) max_time " + format_walltime(b.max_time));
  }
  if (!restoring && !can_ever_fit(cluster_, pidx, r)) {
    const PartitionState& ps = cluster_.partition(pidx);
    if (auto unknown = unknown_gpu_type(ps, r.gpu_type)) {
      return make_error(ErrorCode::kResourceExhausted, job + ": no node in partition '" + pc->name +
                                                          "' has GPUs of type '" + r.gpu_type + "' (" + *unknown + ")");
    }
    return make_error(ErrorCode::kResourceExhausted,
                      job + ": requests " + std::to_string(r.total_cores()) + " cores and " +
                          std::to_string(r.total_gpus()) + " GPUs" + describe_memory_request(r) +
                          (r.nodes > 0 ? " on " + std::to_string(r.nodes) + " nodes" : std::string()) +
                          (r.gpu_type.empty() ? std::string() : " of type '" + r.gpu_type + "'") +
                          ", more than partition '" + pc->name + "' can ever hold (" +
                          std::to_string(ps.capacity.cores) + " cores, " +
                          std::to_string(ps.capacity.gpus) + " GPUs on " +
                          std::to_string(ps.nodes.size()) + " nodes" + describe_node_memory(ps) + ")");
  }

  // A task's CPUs are on one node: -c larger than every node here could never run.
  if (!restoring && spec.tasks.cpus_per_task > cluster_.partition(pidx).largest_node_cores) {
    return make_error(ErrorCode::kResourceExhausted,
                      job + ": --cpus-per-task=" + std::to_string(spec.tasks.cpus_per_task) +
                          " is more CPUs than any node of partition '" + pc->name + "' has (" +
                          std::to_string(cluster_.partition(pidx).largest_node_cores) + ")");
  }

  // "A job may never exceed a HARD limit": one that does on its own would wait forever.
  if (auto hard = restoring ? std::nullopt : maxps_.hard_limit(spec.account)) {
    const double ps = static_cast<double>(spec.time_limit.count()) * static_cast<double>(r.total_cores());
    if (ps > *hard) {
      return invalid_argument(job + ": time_limit x cores = " + std::to_string(static_cast<std::int64_t>(ps)) +
                              " processor-seconds exceeds the MAXPS hard limit " +
                              std::to_string(static_cast<std::int64_t>(*hard)) + " of account '" +
                              spec.account + "'");
    }
  }
  const auto& max_open = config_.limits.max_submitted_jobs_per_user;
  if (!restoring && max_open && open_jobs_by_user_[spec.user] + added > *max_open) {
    return make_error(ErrorCode::kResourceExhausted,
                      job + ": user '" + spec.user + "' already has " +
                          std::to_string(open_jobs_by_user_[spec.user]) +
                          " jobs pending or running (limits.max_submitted_jobs_per_user = " +
                          std::to_string(*max_open) + ")");
  }
  if (!restoring && pc->max_jobs_per_user &&
      open_jobs_by_partition_user_[partition_user_key(spec)] + added > *pc->max_jobs_per_user) {
    return make_error(ErrorCode::kResourceExhausted,
                      job + ": user '" + spec.user + "' already has " +
                          std::to_string(*pc->max_jobs_per_user) + " job(s) in partition '" +
                          pc->name + "' (partitions.max_jobs_per_user)");
  }
  open_jobs_by_user_[spec.user] += static_cast<std::int32_t>(added);
  open_jobs_by_partition_user_[partition_user_key(spec)] += static_cast<std::int32_t>(added);

  JobRecord rec;
  rec.partition = pidx;
  rec.allowed_nodes = std::move(allowed);
  if (const ResourceAmount fp = expected_footprint(cluster_, pidx, spec.resources); fp != requested_amount(r)) {
    rec.footprint = fp;
  }
  rec.partition_priority = partition_priority_[pidx.value()];
  rec.qos_priority = qos_priority;
  rec.priority_cap = priority_cap;
  rec.queue_target_time = queue_target_time;
  rec.association = ledger_.association(spec.account, spec.user);
  rec.eligible_since = now;
  rec.node_bin = bin;
  rec.state = spec.hold ? JobState::kHeld : JobState::kPending;
  if (spec.hold) rec.why.add(PendingReason::kHeld);
  rec.spec = std::move(spec);
  if (!rec.spec.array.empty()) {
    arrays_.add(std::move(rec));
    return ok_status();
  }
  // A restored task takes its place back from its array (a no-op for any other job).
  if (rec.spec.is_array_task()) arrays_.claim(rec.spec.id);
  queue(std::move(rec));
  return ok_status();
}

JobRecord& Scheduler::queue(JobRecord rec) {
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

std::string Scheduler::partition_user_key(const JobSpec& spec) {
  std::string key = spec.partition;
  key.push_back('\0');
  return key + spec.user;
}

void Scheduler::count_closed(const JobRecord& j) {
  --open_jobs_by_user_[j.spec.user];
  --open_jobs_by_partition_user_[partition_user_key(j.spec)];
}

void Scheduler::forget(JobId id) {
  auto it = jobs_.find(id.value());
  if (it != jobs_.end() && is_terminal(it->second.state)) {
    ended_.record(id, it->second.state);
    jobs_.erase(it);
  }
}

PassResult Scheduler::schedule(Time now) {
  PassResult result;
  reservations_.advance(now, maintenance_, cluster_, ledger_, config_.billing, running_, result.reservations_cancelled);
  preempt_for_maintenance(now, result);
  for (JobRecord& task : arrays_.make_tasks(waiting_, running_, cluster_, config_.scheduler.array_task_reservations)) {
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
  const std::unordered_set<const JobRecord*> singleton_clear = singletons_free_to_go();
  std::vector<JobRecord*> cancel_now;
  std::optional<Time> next_begin;
  std::vector<JobRecord*> unranked;  // held, not begun, or waiting on a dependency
  for (JobRecord* j : waiting_) {
    if (j->state != JobState::kPending && j->state != JobState::kBlocked) {
      unranked.push_back(j);
      continue;
    }
    if ((j->spec.begin || !j->spec.dependencies.empty()) &&
        !ready_to_consider(*j, now, singleton_clear.contains(j), cancel_now)) {
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
    in.size_fraction = capacity > 0 ? static_cast<double>(j->spec.resources.total_cores()) /
                                          static_cast<double>(capacity)
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
        const bool backfilled = lowest_waiting < others.size() && others[lowest_waiting]->pass_rank < j.pass_rank;
        result.started.push_back({j.spec.id, j.reserved_start, j.reserved_at, backfilled});
        if (maxps_.enabled()) maxps_.on_start(j);
        if (running_caps_.enabled()) running_caps_.on_start(j);
        start_job(j, std::move(alloc), now);
      },
      gate);
  preempt_for_owners(others, now, result);
  if (maxps_.enabled()) result.recheck_at = maxps_.earliest_release(ordered, now);
  if (next_begin) result.recheck_at = result.recheck_at ? min(*result.recheck_at, *next_begin) : *next_begin;
  if (!reservations_.empty()) reservations_.observe_use(now, running_);
  // Reservations begin, end and run out of patience with no job event: pass again then.
  if (auto at = reservations_.next_event(now)) result.recheck_at = result.recheck_at ? min(*result.recheck_at, *at) : *at;
  return result;
}

}  // namespace fairway
