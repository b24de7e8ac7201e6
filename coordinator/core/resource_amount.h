// A countable amount of schedulable resources (cores, GPUs): what a job needs, what a
// node or partition has free. The unit of the availability profile's arithmetic.
#pragma once

#include <cstdint>

namespace fairway {

struct ResourceAmount {
  std::int64_t cores = 0;
  std::int64_t gpus = 0;

  // True when this amount can satisfy `need` in every dimension.
  constexpr bool covers(const ResourceAmount& need) const {
    return cores >= need.cores && gpus >= need.gpus;
  }
  constexpr ResourceAmount operator+(const ResourceAmount& o) const {
    return {cores + o.cores, gpus + o.gpus};
  }
  constexpr ResourceAmount operator-(const ResourceAmount& o) const {
    return {cores - o.cores, gpus - o.gpus};
  }
  constexpr ResourceAmount& operator+=(const ResourceAmount& o) {
    cores += o.cores;
    gpus += o.gpus;
    return *this;
  }
  constexpr ResourceAmount& operator-=(const ResourceAmount& o) {
    cores -= o.cores;
    gpus -= o.gpus;
    return *this;
  }
  constexpr bool operator==(const ResourceAmount&) const = default;
};

constexpr ResourceAmount componentwise_min(const ResourceAmount& a, const ResourceAmount& b) {
  return {a.cores < b.cores ? a.cores : b.cores, a.gpus < b.gpus ? a.gpus : b.gpus};
}
constexpr ResourceAmount componentwise_max(const ResourceAmount& a, const ResourceAmount& b) {
  return {a.cores > b.cores ? a.cores : b.cores, a.gpus > b.gpus ? a.gpus : b.gpus};
}

}  // namespace fairway
