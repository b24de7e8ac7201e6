#include "coordinator/core/backfill_engine.h"

#include <algorithm>

#include "coordinator/core/placement.h"

namespace fairway {

BackfillPolicy BackfillPolicy::from_config(const SchedulerConfig& c) {
  BackfillPolicy p;
  p.mode = c.backfill;
  switch (c.backfill) {
    case BackfillMode::kNone:
      p.depth = 0;
      break;
    case BackfillMode::kEasy:
      p.depth = 1;
      break;
    case BackfillMode::kConservative:
      p.depth = INT64_MAX;
      break;
  }
  if (c.reservation_depth && c.backfill != BackfillMode::kNone) p.depth = *c.reservation_depth;
  if (c.reservation_min_priority) p.min_priority_for_reservation = *c.reservation_min_priority;
  if (c.backfill != BackfillMode::kNone) p.reserve_after_wait = c.reserve_after_wait;
  p.starving_depth = c.reserve_after_wait_jobs;
  p.main_loop = c.main_loop;
  if (c.backfill_max_jobs_per_user) p.max_jobs_per_user = *c.backfill_max_jobs_per_user;
  if (c.backfill_max_jobs_per_partition) p.max_jobs_per_partition = *c.backfill_max_jobs_per_partition;
  p.shortest_first = c.backfill_order == BackfillOrder::kShortestFirst;
  return p;
}

namespace {

void clear_reservation(JobRecord& j) {
  j.reserved_start.reset();
  j.reserved_at.reset();
}

// What a job competes for in the main loop: CPU-only work, or GPUs of a type ("" = any).
// Slurm's note: an A100 job waiting does not hold back a V100 job.
struct ResourceClass {
  bool gpus = false;
  std::string gpu_type;

  static ResourceClass of(const JobRecord& j) {
    return {j.spec.resources.gpus > 0, j.spec.resources.gpu_type};
  }
  bool overlaps(const ResourceClass& o) const {
    if (gpus != o.gpus) return false;
    return !gpus || gpu_type.empty() || o.gpu_type.empty() || gpu_type == o.gpu_type;
  }
};

}  // namespace

BackfillEngine::BackfillEngine(const ClusterState& cluster, BackfillPolicy policy)
    : cluster_(cluster), policy_(policy) {}

void BackfillEngine::build_profiles(std::span<JobRecord* const> running, Time now) {
  const std::size_t np = cluster_.partition_count();
  profiles_.resize(np);
  releases_.resize(np);
  for (auto& r : releases_) r.clear();
  for (const JobRecord* j : running) {
    const Time end = release_time(*j, now);
    for (const auto& [p, amount] : j->partition_amounts) {
      releases_[p.value()].push_back({end, amount});
    }
  }
  for (std::size_t p = 0; p < np; ++p) {
    const PartitionState& ps = cluster_.partition(PartitionIndex(static_cast<std::uint32_t>(p)));
    profiles_[p].reset(now, ps.free, releases_[p], ps.memory_tracked);
  }
  add_maintenance_to_profiles(now);
}

// A reservation or start in one partition also takes from the partitions sharing its
// nodes: exactly the allocation's share when known, else the whole need (conservative).
void BackfillEngine::reserve_everywhere(PartitionIndex p, Time start, Duration d, const Allocation* alloc,
                                        ResourceAmount need) {
  for (PartitionIndex q : cluster_.partition(p).overlapping) {
    // A placed job's own share includes what it fences, which `need` may not.
    const ResourceAmount amount = alloc == nullptr ? need : cluster_.amount_in_partition(*alloc, q);
    if (amount != ResourceAmount{}) profiles_[q.value()].reserve(start, d, amount);
  }
}

void BackfillEngine::start_now(JobRecord& j, Allocation alloc, Time now, const StartFn& start) {
  // A killable job holds its resources only until the maintenance that will kill it.
  const Duration held = planned_span(j, alloc, now);
  reserve_everywhere(j.partition, now, held, &alloc, j.need());
  if (node_availability_built_) node_availability_.reserve(alloc, now, held);
  j.why = {};
  start(j, std::move(alloc));  // reads the reservation of the previous pass
  clear_reservation(j);
  started_.push_back(&j);
}

// Built on the first node-shaped job of a pass, so passes without one pay nothing: from
// what each node has free now and when the jobs on it (those running at the start of the
// pass and those started since) are expected to end.
void BackfillEngine::ensure_node_availability(Time now) {
  if (node_availability_built_) return;
  std::vector<NodeAvailability::Release> releases;
  auto add = [&](const JobRecord* j) {
    const Time end = release_time(*j, now);
    for (const NodeAllocation& a : j->allocation.nodes) {
      releases.push_back({a.node, end, {std::ssize(a.cores), std::ssize(a.gpus), a.memory_mb}});
    }
  };
  for (const JobRecord* j : running_at_start_) add(j);
  for (const JobRecord* j : started_) add(j);
  node_availability_.reset(cluster_, now, releases);
  add_maintenance_to_nodes(now);
  node_availability_built_ = true;
}

// Both models must agree: the nodes free each for the window, and the partition totals,
// which also carry the reservations of jobs that spread their cores.
NodeAvailability::Slot BackfillEngine::earliest_on_nodes(const JobRecord& j, Time now) const {
  const AvailabilityProfile& profile = profiles_[j.partition.value()];
  // Each round moves t strictly later; a profile so jagged that the two never meet
  // within the bound leaves the job unplanned this pass rather than stall it.
  constexpr int kMaxRounds = 64;
  Time t = now;
  for (int round = 0; round < kMaxRounds && !t.is_never(); ++round) {
    const Duration run = j.planned_runtime();
    auto slot = node_availability_.earliest(cluster_, j.partition, j.spec.resources, run, t);
    if (slot.start.is_never() || profile.fits(slot.start, run, j.need())) return slot;
    t = profile.earliest_start(j.need(), run, slot.start);
  }
  return {};
}

std::vector<JobRecord*> BackfillEngine::run_main_loop(std::span<JobRecord* const> ordered, Time now,
                                                      const StartFn& start, const GateFn& gate) {
  std::vector<JobRecord*> left;
  std::vector<std::vector<ResourceClass>> wanted(cluster_.partition_count());
  for (JobRecord* j : ordered) {
    const PartitionIndex p = j->partition;
    const PartitionState& ps = cluster_.partition(p);
    const ResourceClass rc = ResourceClass::of(*j);
    PendingExplanation why;
    bool skipped = false;
    for (const ResourceClass& w : wanted[p.value()]) skipped = skipped || w.overlaps(rc);
    if (skipped) why.add(PendingReason::kPriority);
    const bool free_now = ps.free.covers(j->need());
    if (!free_now) why.add(PendingReason::kResources);
    if (maintenance_delays(*j, now)) why.add(PendingReason::kMaintenance);
    if (!skipped && gate) {
      if (auto blocked = gate(*j)) {
        why.add(*blocked);
        skipped = true;
      }
    }
    if (!skipped && free_now && profiles_[p.value()].fits(now, j->planned_runtime(), j->need())) {
      auto alloc = place_job(cluster_, *j);
      const bool placed = alloc.has_value();
      if (alloc && maintenance_forbids(*j, *alloc, now)) alloc = place_avoiding_maintenance(*j, now);
      if (alloc) {
        start_now(*j, std::move(*alloc), now, start);
        continue;
      }
      why.add(placed ? PendingReason::kMaintenance : PendingReason::kFragmented);
    }
    if (!skipped) {
      for (PartitionIndex q : ps.overlapping) wanted[q.value()].push_back(rc);
    }
    clear_reservation(*j);
    j->why = why;
    left.push_back(j);
  }
  return left;
}

bool BackfillEngine::over_backfill_cap(JobRecord& j) {
  PendingExplanation why;
  if (policy_.max_jobs_per_user != std::numeric_limits<std::int64_t>::max() &&
      ++backfill_jobs_by_user_[j.spec.user] > policy_.max_jobs_per_user) {
    why.add(PendingReason::kBackfillUserLimit);
  }
  if (++backfill_jobs_by_partition_[j.partition.value()] > policy_.max_jobs_per_partition) {
    why.add(PendingReason::kBackfillPartitionLimit);
  }
  if (why.reasons == 0) return false;
  clear_reservation(j);
  j.why = why;
  return true;
}

std::size_t BackfillEngine::run(std::span<JobRecord* const> ordered_in, std::span<JobRecord* const> running,
                                Time now, const StartFn& start, const GateFn& gate) {
  build_profiles(running, now);
  running_at_start_.assign(running.begin(), running.end());
  std::vector<JobRecord*> left;
  std::span<JobRecord* const> ordered = ordered_in;
  if (policy_.main_loop) {
    left = run_main_loop(ordered_in, now, start, gate);
    // Without backfill the main loop is all there is, and its verdicts stand.
    if (policy_.mode == BackfillMode::kNone) return 0;
    ordered = left;
  }
  backfill_jobs_by_user_.clear();
  backfill_jobs_by_partition_.assign(cluster_.partition_count(), 0);
  const bool capped = policy_.mode != BackfillMode::kNone &&
                      (policy_.max_jobs_per_user != std::numeric_limits<std::int64_t>::max() ||
                       policy_.max_jobs_per_partition != std::numeric_limits<std::int64_t>::max());
  const std::size_t np = cluster_.partition_count();
  std::vector<std::int64_t> reservations(np, 0);
  std::vector<std::int64_t> starving_reservations(np, 0);
  std::vector<std::uint8_t> someone_waits(np, 0);  // a higher-priority job could not start
  std::size_t total_reservations = 0;
  // Bypass count (Maui): a job that waits is passed by every later, lower-priority job
  // started in a partition sharing its nodes. starts[p] counts those starts so far.
  std::vector<std::size_t> starts(np, 0);
  std::vector<std::pair<JobRecord*, std::size_t>> passed;

  const auto consider = [&](JobRecord* j) {
    const PartitionIndex p = j->partition;
    const PartitionState& ps = cluster_.partition(p);
    AvailabilityProfile& profile = profiles_[p.value()];
    const ResourceAmount need = j->need();
    const Duration limit = j->planned_runtime();
    if (capped && over_backfill_cap(*j)) return;
    PendingExplanation why;

    const bool free_now = ps.free.covers(need);
    if (!free_now) why.add(PendingReason::kResources);
    if (someone_waits[p.value()]) why.add(PendingReason::kPriority);
    if (maintenance_delays(*j, now)) why.add(PendingReason::kMaintenance);
    if (gate) {
      if (auto blocked = gate(*j)) {
        why.add(*blocked);
        clear_reservation(*j);
        j->why = why;
        return;
      }
    }

    if (policy_.mode == BackfillMode::kNone && someone_waits[p.value()]) {
      why.add(PendingReason::kStrictOrder);
      clear_reservation(*j);
      j->why = why;
      return;
    }

    const bool shaped =
        j->spec.resources.nodes > 0 && node_aware_reservations_ < policy_.node_aware_reservations_per_pass;
    if (shaped) ensure_node_availability(now);
    bool fragmented = false;
    if (free_now && profile.fits(now, limit, need)) {
      std::optional<Allocation> alloc = place_job(cluster_, *j);
      if (alloc && maintenance_forbids(*j, *alloc, now)) {
        // Placement chose a node under (or about to be under) maintenance: try the others.
        alloc = place_avoiding_maintenance(*j, now);
        if (!alloc) why.add(PendingReason::kMaintenance);
      } else if (!alloc) {
        fragmented = true;
        why.add(PendingReason::kFragmented);
      }
      if (alloc && node_availability_built_ &&
          !node_availability_.fits(*alloc, now, planned_span(*j, *alloc, now))) {
        // Placement's choice would run into a reservation pinned to one of its nodes;
        // other nodes may not. (When placement finds no nodes at all, none are free now.)
        alloc.reset();
        why.add(PendingReason::kReservationConflict);
        if (shaped) {
          const auto slot = node_availability_.at(cluster_, p, j->spec.resources, limit, now);
          if (slot.start == now) alloc = place_on_nodes(cluster_, j->spec.resources, slot.nodes);
        }
      }
      // Whole sockets or a GPU fence may take more than `need` on mixed node shapes: the
      // start must still leave every reservation whole.
      if (alloc) {
        const ResourceAmount taken = cluster_.amount_in_partition(*alloc, p);
        if (taken != need && !profile.fits(now, limit, taken)) {
          alloc.reset();
          why.add(PendingReason::kReservationConflict);
        }
      }
      if (alloc) {
        for (PartitionIndex q : ps.overlapping) ++starts[q.value()];
        start_now(*j, std::move(*alloc), now, start);
        return;
      }
    } else if (free_now) {
      why.add(PendingReason::kReservationConflict);
    }

    for (PartitionIndex q : ps.overlapping) someone_waits[q.value()] = 1;
    passed.emplace_back(j, starts[p.value()]);
    clear_reservation(*j);
    // Starving: reserved beyond the depth, and not counted in it (the head keeps its own).
    const bool starving = policy_.reserve_after_wait &&
                          now - j->eligible_since >= *policy_.reserve_after_wait &&
                          starving_reservations[p.value()] < policy_.starving_depth;
    const bool in_depth =
        reservations[p.value()] < policy_.depth && j->priority.total >= policy_.min_priority_for_reservation;
    if (in_depth || starving) {
      Time at;
      std::vector<NodeIndex> pinned;
      if (shaped) {
        auto slot = earliest_on_nodes(*j, now);
        at = slot.start;
        pinned = std::move(slot.nodes);
        ++node_aware_reservations_;
      } else {
        // A fragmented job cannot start now even though the sums say it could: plan it
        // from the next moment anything changes.
        const Time not_before = fragmented ? profile.next_change_after(now) : now;
        at = profile.earliest_start(need, limit, not_before);
      }
      // A killable job's profile ignores maintenance until its cutoff: no promise there.
      if (killable(p) && !at.is_never() && maintenance_delays(*j, at)) at = Time::never();
      if (!at.is_never()) {
        reserve_everywhere(p, at, limit, nullptr, need);
        const ResourceRequest& r = j->spec.resources;
        const ResourceAmount per_node{r.cores, r.gpus, r.memory_on_node(r.cores)};
        for (NodeIndex n : pinned) node_availability_.reserve(n, at, limit, per_node);
        j->reserved_start = at;
        j->reserved_at = now;
        why.estimated_start = at;
        if (in_depth) {
          ++reservations[p.value()];
        } else {
          ++starving_reservations[p.value()];
        }
        ++total_reservations;
      }
    }
    j->why = why;
  };
  // Shortest-first backfill (EASY++): a job that could hold no reservation now, behind one
  // that waits, is only a candidate to fill in; candidates go after the queue, shortest
  // planned run first. Those that may still hold a reservation keep the queue's order.
  const bool shortest_first = policy_.shortest_first && policy_.mode != BackfillMode::kNone;
  std::vector<JobRecord*> fillers;
  for (JobRecord* j : ordered) {
    const std::size_t p = j->partition.value();
    if (shortest_first && someone_waits[p]) {
      const bool may_reserve =
          reservations[p] < policy_.depth && j->priority.total >= policy_.min_priority_for_reservation;
      const bool may_starve = policy_.reserve_after_wait &&
                              now - j->eligible_since >= *policy_.reserve_after_wait &&
                              starving_reservations[p] < policy_.starving_depth;
      if (!may_reserve && !may_starve) {
        fillers.push_back(j);
        continue;
      }
    }
    consider(j);
  }
  std::stable_sort(fillers.begin(), fillers.end(), [](const JobRecord* a, const JobRecord* b) {
    return a->planned_runtime() < b->planned_runtime();
  });
  for (JobRecord* j : fillers) consider(j);
  for (auto [j, before] : passed) {
    j->bypass_count += static_cast<std::int64_t>(starts[j->partition.value()] - before);
  }
  return total_reservations;
}

}  // namespace fairway
