#include "coordinator/core/backfill_engine.h"

#include "coordinator/core/placement.h"

namespace fairway {

BackfillPolicy BackfillPolicy::from_config(const SchedulerConfig& c) {
  BackfillPolicy p;
  p.mode = c.backfill;
  switch (c.backfill) {
    case BackfillMode::kNone: p.depth = 0; break;
    case BackfillMode::kEasy: p.depth = 1; break;
    case BackfillMode::kConservative: p.depth = INT64_MAX; break;
  }
  if (c.reservation_depth && c.backfill != BackfillMode::kNone) p.depth = *c.reservation_depth;
  if (c.reservation_min_priority) p.min_priority_for_reservation = *c.reservation_min_priority;
  return p;
}

namespace {

void clear_reservation(JobRecord& j) {
  j.reserved_start.reset();
  j.reserved_at.reset();
}

}  // namespace

BackfillEngine::BackfillEngine(const ClusterState& cluster, BackfillPolicy policy)
    : cluster_(cluster), policy_(policy) {}

void BackfillEngine::build_profiles(std::span<JobRecord* const> running, Time now) {
  const std::size_t np = cluster_.partition_count();
  profiles_.resize(np);
  releases_.resize(np);
  for (auto& r : releases_) r.clear();
  for (const JobRecord* j : running) {
    const Time end = j->estimated_end(now);
    for (const auto& [p, amount] : j->partition_amounts) {
      releases_[p.value()].push_back({end, amount});
    }
  }
  for (std::size_t p = 0; p < np; ++p) {
    profiles_[p].reset(now, cluster_.partition(PartitionIndex(static_cast<std::uint32_t>(p))).free,
                       releases_[p]);
  }
}

// A reservation or start in one partition also takes from the partitions sharing its
// nodes: exactly the allocation's share when known, else the whole need (conservative).
void BackfillEngine::reserve_everywhere(PartitionIndex p, Time start, Duration d,
                                        const Allocation* alloc, ResourceAmount need) {
  for (PartitionIndex q : cluster_.partition(p).overlapping) {
    // A placed job's own share includes what it fences, which `need` may not.
    const ResourceAmount amount =
        alloc == nullptr ? need : cluster_.amount_in_partition(*alloc, q);
    if (amount.cores != 0 || amount.gpus != 0) profiles_[q.value()].reserve(start, d, amount);
  }
}

std::size_t BackfillEngine::run(std::span<JobRecord* const> ordered,
                                std::span<JobRecord* const> running, Time now,
                                const StartFn& start, const GateFn& gate) {
  build_profiles(running, now);
  const std::size_t np = cluster_.partition_count();
  std::vector<std::int64_t> reservations(np, 0);
  std::vector<std::uint8_t> someone_waits(np, 0);  // a higher-priority job could not start
  std::size_t total_reservations = 0;
  // Bypass count (Maui): a job that waits is passed by every later, lower-priority job
  // started in a partition sharing its nodes. starts[p] counts those starts so far.
  std::vector<std::size_t> starts(np, 0);
  std::vector<std::pair<JobRecord*, std::size_t>> passed;

  for (JobRecord* j : ordered) {
    const PartitionIndex p = j->partition;
    const PartitionState& ps = cluster_.partition(p);
    AvailabilityProfile& profile = profiles_[p.value()];
    const ResourceAmount need = j->need();
    const Duration limit = j->spec.time_limit;
    PendingExplanation why;

    const bool free_now = ps.free.covers(need);
    if (!free_now) why.add(PendingReason::kResources);
    if (someone_waits[p.value()]) why.add(PendingReason::kPriority);
    if (gate) {
      if (auto blocked = gate(*j)) {
        why.add(*blocked);
        clear_reservation(*j);
        j->why = why;
        continue;
      }
    }

    if (policy_.mode == BackfillMode::kNone && someone_waits[p.value()]) {
      why.add(PendingReason::kStrictOrder);
      clear_reservation(*j);
      j->why = why;
      continue;
    }

    bool fragmented = false;
    if (free_now && profile.fits(now, limit, need)) {
      auto alloc = place_job(cluster_, p, j->spec.resources, j->spec.allow_multi_island);
      // Whole sockets or a GPU fence may take more than `need` on mixed node shapes: the
      // start must still leave every reservation whole.
      const bool fits_around_reservations =
          alloc && (cluster_.amount_in_partition(*alloc, p) == need ||
                    profile.fits(now, limit, cluster_.amount_in_partition(*alloc, p)));
      if (fits_around_reservations) {
        reserve_everywhere(p, now, limit, &*alloc, need);
        for (PartitionIndex q : ps.overlapping) ++starts[q.value()];
        j->why = {};
        start(*j, std::move(*alloc));  // reads the reservation of the previous pass
        clear_reservation(*j);
        continue;
      }
      if (alloc) {
        why.add(PendingReason::kReservationConflict);
      } else {
        fragmented = true;
        why.add(PendingReason::kFragmented);
      }
    } else if (free_now) {
      why.add(PendingReason::kReservationConflict);
    }

    for (PartitionIndex q : ps.overlapping) someone_waits[q.value()] = 1;
    passed.emplace_back(j, starts[p.value()]);
    clear_reservation(*j);
    if (reservations[p.value()] < policy_.depth &&
        j->priority.total >= policy_.min_priority_for_reservation) {
      // A fragmented job cannot start now even though the sums say it could: plan it
      // from the next moment anything changes.
      const Time not_before = fragmented ? profile.next_change_after(now) : now;
      const Time at = profile.earliest_start(need, limit, not_before);
      if (!at.is_never()) {
        reserve_everywhere(p, at, limit, nullptr, need);
        j->reserved_start = at;
        j->reserved_at = now;
        why.estimated_start = at;
        ++reservations[p.value()];
        ++total_reservations;
      }
    }
    j->why = why;
  }
  for (auto [j, before] : passed) {
    j->bypass_count += static_cast<std::int64_t>(starts[j->partition.value()] - before);
  }
  return total_reservations;
}

}  // namespace fairway
