// A countable amount of schedulable resources (cores, GPUs, memory): what a job needs,
// what a node or partition has free. The unit of the availability profile's arithmetic.
#pragma once

#include <cstdint>

#include "shared/model/resources.h"

namespace fairway {

// The memory of a node that declares none (config without memory_mb): so large that no
// request runs short of it, so that memory is scheduled only where it is known. Sums
// over a million such nodes still fit in 64 bits.
inline constexpr std::int64_t kUntrackedMemoryMb = std::int64_t{1} << 40;

struct ResourceAmount {
  std::int64_t cores = 0;
  std::int64_t gpus = 0;
  std::int64_t memory_mb = 0;

  // True when this amount can satisfy `need` in every dimension.
  constexpr bool covers(const ResourceAmount& need) const {
    return cores >= need.cores && gpus >= need.gpus && memory_mb >= need.memory_mb;
  }
  constexpr ResourceAmount operator+(const ResourceAmount& o) const {
    return {cores + o.cores, gpus + o.gpus, memory_mb + o.memory_mb};
  }
  constexpr ResourceAmount operator-(const ResourceAmount& o) const {
    return {cores - o.cores, gpus - o.gpus, memory_mb - o.memory_mb};
  }
  constexpr ResourceAmount& operator+=(const ResourceAmount& o) {
    cores += o.cores;
    gpus += o.gpus;
    memory_mb += o.memory_mb;
    return *this;
  }
  constexpr ResourceAmount& operator-=(const ResourceAmount& o) {
    cores -= o.cores;
    gpus -= o.gpus;
    memory_mb -= o.memory_mb;
    return *this;
  }
  constexpr bool operator==(const ResourceAmount&) const = default;
};

constexpr ResourceAmount componentwise_min(const ResourceAmount& a, const ResourceAmount& b) {
  return {a.cores < b.cores ? a.cores : b.cores, a.gpus < b.gpus ? a.gpus : b.gpus,
          a.memory_mb < b.memory_mb ? a.memory_mb : b.memory_mb};
}
constexpr ResourceAmount componentwise_max(const ResourceAmount& a, const ResourceAmount& b) {
  return {a.cores > b.cores ? a.cores : b.cores, a.gpus > b.gpus ? a.gpus : b.gpus,
          a.memory_mb > b.memory_mb ? a.memory_mb : b.memory_mb};
}

// What a request asks of a pool in all: cores, GPUs and (a lower bound of) memory.
inline ResourceAmount requested_amount(const ResourceRequest& r) {
  return {r.total_cores(), r.total_gpus(), r.total_memory_mb()};
}

}  // namespace fairway
