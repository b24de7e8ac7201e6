// Free cores and GPUs of each node as a step function of future time, for node-shaped
// requests (N nodes x c cores, g GPUs each): the earliest time N suitable nodes are each
// free for a whole window, and reservations pinned to those nodes. Not thread-safe: one
// backfill pass owns one. Pure: time comes in as arguments.
//
// Per-partition totals (AvailabilityProfile) cannot tell two free cores on one node from
// one free core on each of two nodes; this can, at a cost linear in the partition's nodes
// per query, which is why the backfill engine uses it only for node-shaped jobs.
#pragma once

#include <span>
#include <vector>

#include "coordinator/core/cluster_state.h"
#include "coordinator/core/resource_amount.h"
#include "shared/base/time.h"
#include "shared/model/allocation.h"
#include "shared/model/resources.h"

namespace fairway {

class NodeAvailability {
 public:
  struct Release {
    NodeIndex node;
    Time at;
    ResourceAmount amount;
  };
  struct Slot {
    Time start = Time::never();
    std::vector<NodeIndex> nodes;  // request.nodes of them, when start is not never
  };

  // Every node of `cluster` starts at `now` with what it has free; each release adds its
  // amount to its node from its time on.
  void reset(const ClusterState& cluster, Time now, std::span<const Release> releases);

  // The earliest t >= not_before at which `r.nodes` nodes of partition p, each able to
  // hold r.cores cores and r.gpus GPUs of r.gpu_type, are free for [t, t + duration).
  // Nodes without GPUs come first for jobs that ask none, as placement prefers.
  Slot earliest(const ClusterState& cluster, PartitionIndex p, const ResourceRequest& r, Duration duration,
                Time not_before) const;

  // `r.nodes` suitable nodes free for [start, start + duration), or an empty slot: one
  // pass over the nodes that stops as soon as enough are found.
  Slot at(const ClusterState& cluster, PartitionIndex p, const ResourceRequest& r, Duration duration,
          Time start) const;

  // True when every node of `alloc` has its share free during [start, start + duration).
  bool fits(const Allocation& alloc, Time start, Duration duration) const;

  // Takes `amount` on node n during [start, start + duration).
  void reserve(NodeIndex n, Time start, Duration duration, ResourceAmount amount);
  // Takes each node's share of `alloc` during [start, start + duration).
  void reserve(const Allocation& alloc, Time start, Duration duration);

  ResourceAmount free_at(NodeIndex n, Time t) const;

 private:
  struct Step {
    Time at;  // the value holds from here to the next step's time
    ResourceAmount free;
  };
  using Timeline = std::vector<Step>;

  static std::size_t step_of(const Timeline& tl, Time t);  // t >= the first step's time
  // The earliest s >= t with `need` free on the node during [s, s + duration).
  static Time earliest_on(const Timeline& tl, ResourceAmount need, Duration duration, Time t);
  static bool fits_on(const Timeline& tl, ResourceAmount need, Duration duration, Time t);
  static std::size_t split(Timeline& tl, Time t);  // a step starting at t; its index
  // Nodes of partition p that could ever hold one node's share of `r`, GPU-less ones first
  // for CPU-only requests.
  static std::vector<NodeIndex> suitable_nodes(const ClusterState& cluster, PartitionIndex p,
                                               const ResourceRequest& r);

  Time origin_;
  std::vector<Timeline> nodes_;  // by NodeIndex
};

}  // namespace fairway
