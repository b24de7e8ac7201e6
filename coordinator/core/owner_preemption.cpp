#include "coordinator/core/owner_preemption.h"

#include <algorithm>
#include <cassert>

#include "coordinator/core/placement.h"
#include "coordinator/core/victim_selection.h"
#include "shared/base/try.h"

namespace fairway {
namespace {

// Preemption makes room; it does not lift limits. A job held back by anything but a lack
// of free resources (limits, maintenance, backfill caps, a hold) is left to wait.
bool waits_only_for_resources(const PendingExplanation& why) {
  constexpr std::uint32_t kRoom = static_cast<std::uint32_t>(PendingReason::kResources) |
                                  static_cast<std::uint32_t>(PendingReason::kPriority) |
                                  static_cast<std::uint32_t>(PendingReason::kReservationConflict) |
                                  static_cast<std::uint32_t>(PendingReason::kFragmented) |
                                  static_cast<std::uint32_t>(PendingReason::kStrictOrder);
  return why.reasons != 0 && (why.reasons & ~kRoom) == 0;
}

}  // namespace

OwnerPreemption::OwnerPreemption(std::span<const PartitionConfig> partitions) {
  for (const auto& p : partitions) tier_.push_back(p.priority_tier);
  for (const auto& victim : partitions) {
    for (const auto& owner : partitions) {
      if (victim.preempt != PreemptMode::kOff && owner.priority_tier > victim.priority_tier)
        configured_ = true;
    }
  }
}

void OwnerPreemption::preempt_for_owners(std::span<JobRecord* const> ordered,
                                         std::span<JobRecord* const> running,
                                         std::span<const PartitionConfig> partitions, ClusterState& cluster,
                                         Time now, PassResult& result, PreemptionHost& host) const {
  if (!configured_) return;
  const auto tier = [&](const JobRecord* j) { return tier_[j->partition.value()]; };
  std::vector<JobRecord*> candidates;
  std::int32_t lowest_tier = 0;
  for (JobRecord* r : running) {
    const PartitionConfig& pc = partitions[r->partition.value()];
    if (pc.preempt == PreemptMode::kOff || r->preempting) continue;
    if (now - r->start_time < pc.preempt_exempt_time) continue;
    lowest_tier = candidates.empty() ? tier(r) : std::min(lowest_tier, tier(r));
    candidates.push_back(r);
  }
  // Cheapest to lose first: lowest priority, then the most recently started (least work
  // lost), then the newest id.
  std::sort(candidates.begin(), candidates.end(), [](const JobRecord* a, const JobRecord* b) {
    if (a->priority.total != b->priority.total) return a->priority.total < b->priority.total;
    if (a->start_time != b->start_time) return a->start_time > b->start_time;
    return a->spec.id > b->spec.id;
  });

  std::vector<Allocation> planned;  // owners' future allocations, taken for this pass only
  std::vector<JobRecord*> chosen;
  std::vector<JobRecord*> unstart;  // victims this very pass started: they never ran
  std::vector<JobRecord*> owners;   // owners whose victims are all such
  for (JobRecord* owner : ordered) {
    if (owner->state != JobState::kPending) continue;
    if (owner->victims_stopping > 0) {
      owner->why.add(PendingReason::kPreempting);
      continue;
    }
    if (candidates.empty() || tier(owner) <= lowest_tier || !waits_only_for_resources(owner->why)) continue;
    std::vector<JobRecord*> pool;
    for (JobRecord* c : candidates) {
      if (!c->preempting && tier(c) < tier(owner)) pool.push_back(c);
    }
    if (pool.empty()) continue;
    // Fits already (a same-tier reservation or the pass's order held it back): stopping
    // someone would gain it nothing.
    if (place_job(cluster, *owner)) continue;
    auto choice = choose_victims(cluster, *owner, pool);
    if (!choice) continue;
    planned.push_back(std::move(choice->allocation));
    std::int32_t stopping = 0;
    for (JobRecord* v : choice->victims) {
      const PartitionConfig& vp = partitions[v->partition.value()];
      const bool requeue = vp.preempt == PreemptMode::kRequeue && v->spec.requeue && !v->spec.interactive;
      v->preempting = PreemptionMark{owner->spec.id, owner->partition, now, now + vp.preempt_grace, requeue};
      chosen.push_back(v);
      // Backfilled in this pass into cores the owner needs: it has not been launched, so
      // it goes back to the queue unstarted instead of being started and killed.
      if (v->start_time == now && std::any_of(result.started.begin(), result.started.end(),
                                              [&](const JobStart& s) { return s.id == v->spec.id; })) {
        unstart.push_back(v);
        continue;
      }
      ++stopping;
      result.preempting.push_back(
          {v->spec.id, owner->spec.id, owner->spec.partition, vp.preempt_grace, requeue});
    }
    owner->victims_stopping += stopping;
    owner->why.add(PendingReason::kPreempting);
    if (stopping == 0) owners.push_back(owner);
  }
  // Back to what is really allocated: victims hold their cores until they stop.
  for (auto it = planned.rbegin(); it != planned.rend(); ++it) cluster.release(*it);
  for (JobRecord* v : chosen) cluster.allocate(v->allocation);
  for (JobRecord* v : unstart) {
    v->preempting.reset();
    std::erase_if(result.started, [&](const JobStart& s) { return s.id == v->spec.id; });
    const Status st = host.requeue(v->spec.id, now);
    assert(st.has_value() && "a job started this pass can be requeued");
    (void)st;
  }
  // An owner whose victims all went back unstarted has its cores now.
  for (JobRecord* owner : owners) {
    if (owner->state != JobState::kPending || owner->victims_stopping > 0) continue;
    auto alloc = place_job(cluster, *owner);
    if (!alloc) continue;  // another owner of this pass took them: it retries next pass
    owner->why = {};
    result.started.push_back({owner->spec.id, owner->reserved_start, owner->reserved_at});
    host.start(*owner, std::move(*alloc), now);
  }
}

void OwnerPreemption::victim_gone(JobRecord& victim, JobRecord* owner) {
  if (!victim.preempting) return;
  if (owner != nullptr && owner->victims_stopping > 0) --owner->victims_stopping;
  victim.preempting.reset();
}

Result<JobState> OwnerPreemption::stop_victim(JobId id, Time now, PreemptionHost& host) {
  JobRecord* j = host.find(id);
  if (j == nullptr)
    return make_error(ErrorCode::kNotFound, "job " + std::to_string(id.value()) + " not found");
  if (j->state != JobState::kRunning || !j->preempting) {
    return make_error(ErrorCode::kFailedPrecondition,
                      "job " + std::to_string(id.value()) + " is not being preempted");
  }
  const bool requeue_it = j->preempting->requeue;
  ++j->preempt_count;
  if (requeue_it) {
    FAIRWAY_TRY(host.requeue(id, now));
    return JobState::kPending;
  }
  FAIRWAY_TRY(host.finish(id, JobState::kPreempted, now));
  return JobState::kPreempted;
}

}  // namespace fairway
