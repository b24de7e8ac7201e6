// An Allocation packed into a few bytes per run of nodes, for records kept long after the
// job ran (the simulator keeps one per job of a trace). Exact: expand() gives back the
// same nodes, cores and GPUs in the same order. Immutable once built; safe to share.
#pragma once

#include <cstdint>
#include <vector>

#include "shared/model/allocation.h"

namespace fairway {

// A 1,000-core job on single-core nodes costs about 72 KB as an Allocation (one
// NodeAllocation and one heap block per node) and a few bytes here: each node is written
// as its distance from the previous node plus one; consecutive nodes holding the same
// cores, GPUs and memory collapse into one run; core and GPU lists are written as runs of
// consecutive numbers. Totals are kept apart so metrics never need to unpack.
class CompactAllocation {
 public:
  CompactAllocation() = default;
  explicit CompactAllocation(const Allocation& a);

  Allocation expand() const;

  // Reads the nodes one at a time into a NodeAllocation whose vectors it reuses, so a
  // pass over every record allocates nothing per node. Valid while the allocation lives;
  // `out` must be the same object at every call (a node that holds what the previous
  // one held is not written again).
  class Cursor {
   public:
    explicit Cursor(const CompactAllocation& a) : bytes_(&a.bytes_) {}
    bool next(NodeAllocation& out);

   private:
    const std::vector<std::uint8_t>* bytes_;
    std::size_t at_ = 0;
    std::uint64_t run_left_ = 0;
    bool started_ = false;
  };
  Cursor cursor() const { return Cursor(*this); }

  bool empty() const { return node_count_ == 0; }
  std::int64_t node_count() const { return node_count_; }
  std::int64_t total_cores() const { return cores_; }
  std::int64_t total_gpus() const { return gpus_; }
  std::int64_t total_memory_mb() const { return memory_mb_; }
  // Bytes of the packed form (not counting this object), for benchmarks.
  std::size_t packed_bytes() const { return bytes_.capacity(); }

  bool operator==(const CompactAllocation&) const = default;

 private:
  std::vector<std::uint8_t> bytes_;
  std::int64_t cores_ = 0;
  std::int64_t gpus_ = 0;
  std::int64_t memory_mb_ = 0;
  std::int64_t node_count_ = 0;
};

}  // namespace fairway
