// BackfillEngine's handling of reservations (maintenance and project windows) and killable
// partitions (Titan, seed 000), kept apart from the engine's main algorithm.
#include "coordinator/core/backfill_engine.h"

#include <algorithm>

#include "coordinator/core/placement.h"

namespace fairway {

void BackfillEngine::set_maintenance(const MaintenanceSchedule& maintenance,
                                     std::span<const PartitionConfig> partitions) {
  maintenance_ = maintenance.empty() ? nullptr : &maintenance;
  partition_configs_ = partitions;
  maintenance_amounts_.clear();
  if (maintenance_ == nullptr) return;
  for (const MaintenanceWindow& w : maintenance_->windows()) {
    auto& amounts = maintenance_amounts_.emplace_back();
    for (std::size_t p = 0; p < cluster_.partition_count(); ++p) {
      const PartitionIndex pi(static_cast<std::uint32_t>(p));
      amounts.push_back(maintenance_->amount_in_partition(w, cluster_, pi));
    }
  }
}

bool BackfillEngine::maintenance_in(PartitionIndex p, Time from, Time to) const {
  const auto windows = maintenance_->windows();
  for (std::size_t w = 0; w < windows.size(); ++w) {
    if (windows[w].start >= to || windows[w].end <= from) continue;
    if (maintenance_amounts_[w][p.value()].cores > 0) return true;
  }
  return false;
}

bool BackfillEngine::killable(PartitionIndex p) const {
  return p.value() < partition_configs_.size() && partition_configs_[p.value()].killable;
}

// A running killable job gives its resources back when the next maintenance on its nodes
// kills it, not at its time limit. A job in an active project reservation gives them back
// to everyone else only when the reservation ends: until then they are the project's.
Time BackfillEngine::release_time(const JobRecord& j, Time now) const {
  const Time end = j.planned_end(now);
  if (maintenance_ == nullptr) return end;
  if (!j.spec.reservation.empty()) {
    const MaintenanceWindow* w = maintenance_->find(j.spec.reservation);
    if (w != nullptr && w->start <= now && now < w->end) return max(end, w->end);
  }
  if (!killable(j.partition)) return end;
  const Time kill = maintenance_->next_on_allocation(cluster_, j.allocation, now);
  return kill > now ? min(end, kill) : end;
}

// Every partition loses the window's nodes during the window. A killable partition's jobs
// may run into a window, so its profile loses them only from the cutoff before the window
// once that has come: before, its jobs are planned as if there were no maintenance.
void BackfillEngine::add_maintenance_to_profiles(Time now) {
  if (maintenance_ == nullptr) return;
  const auto windows = maintenance_->windows();
  for (std::size_t wi = 0; wi < windows.size(); ++wi) {
    const MaintenanceWindow& w = windows[wi];
    if (w.end <= now) continue;
    for (std::size_t i = 0; i < profiles_.size(); ++i) {
      const PartitionIndex p(static_cast<std::uint32_t>(i));
      Time from = max(w.start, now);
      if (killable(p)) {
        const Time blocked_from = w.start - partition_configs_[i].killable_cutoff;
        if (now < blocked_from) continue;
        from = now;
      }
      // An active project reservation withholds what is free on its nodes; what its own
      // jobs hold comes back when it ends (release_time).
      const bool active_project = !w.account.empty() && w.start <= now;
      const ResourceAmount amount =
          active_project ? maintenance_->free_in_partition(w, cluster_, p) : maintenance_amounts_[wi][i];
      if (amount != ResourceAmount{}) profiles_[i].reserve(from, w.end - from, amount);
    }
  }
}

void BackfillEngine::add_maintenance_to_nodes(Time now) {
  if (maintenance_ == nullptr) return;
  for (const MaintenanceWindow& w : maintenance_->windows()) {
    if (w.end <= now) continue;
    const Time from = max(w.start, now);
    const bool active_project = !w.account.empty() && w.start <= now;
    for (NodeIndex n : maintenance_->nodes(w, cluster_)) {
      const ResourceAmount amount = active_project ? cluster_.node(n).free() : cluster_.node(n).capacity();
      node_availability_.reserve(n, from, w.end - from, amount);
    }
  }
}

bool BackfillEngine::maintenance_delays(const JobRecord& j, Time now) const {
  if (maintenance_ == nullptr) return false;
  if (killable(j.partition)) {
    const Duration cutoff = partition_configs_[j.partition.value()].killable_cutoff;
    return maintenance_in(j.partition, now, now + cutoff + Duration::seconds(1));
  }
  return maintenance_in(j.partition, now, now + j.spec.time_limit);
}

bool BackfillEngine::maintenance_forbids(const JobRecord& j, const Allocation& alloc, Time now) const {
  if (maintenance_ == nullptr) return false;
  if (killable(j.partition)) {
    const Duration cutoff = partition_configs_[j.partition.value()].killable_cutoff;
    return maintenance_->overlaps_allocation(cluster_, alloc, now, now + cutoff + Duration::seconds(1));
  }
  return maintenance_->overlaps_allocation(cluster_, alloc, now, now + j.spec.time_limit);
}

std::optional<Allocation> BackfillEngine::place_avoiding_maintenance(const JobRecord& j, Time now) const {
  const Time to = killable(j.partition)
                      ? now + partition_configs_[j.partition.value()].killable_cutoff + Duration::seconds(1)
                      : now + j.spec.time_limit;
  ClusterState masked = cluster_;
  for (const MaintenanceWindow& w : maintenance_->windows()) {
    if (w.start >= to || w.end <= now) continue;
    for (NodeIndex n : maintenance_->nodes(w, cluster_)) masked.set_node_up(n, false);
  }
  return place_job(masked, j);
}

Duration BackfillEngine::node_check_span(const JobRecord& j, const Allocation& alloc, Time now) const {
  if (maintenance_ == nullptr || !killable(j.partition)) return j.spec.time_limit;
  const Time kill = maintenance_->next_on_allocation(cluster_, alloc, now);
  if (kill.is_never() || kill - now >= j.spec.time_limit) return j.spec.time_limit;
  return kill > now ? kill - now : Duration::seconds(1);
}

Duration BackfillEngine::planned_span(const JobRecord& j, const Allocation& alloc, Time now) const {
  return std::min(j.planned_runtime(), node_check_span(j, alloc, now));
}

}  // namespace fairway
