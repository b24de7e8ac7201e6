// How long something took, over many runs (scheduling passes, store commits): count, sum,
// max, last, and Prometheus-style cumulative buckets. Plain data; one owner thread.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

namespace fairway::daemon {

struct DurationStats {
  // Upper bounds in seconds: from a pass over a few jobs to one over a deep queue.
  static constexpr std::array<double, 10> kBounds = {0.0001, 0.0005, 0.001, 0.005, 0.01,
                                                     0.05,   0.1,    0.5,   1.0,   5.0};
  std::uint64_t count = 0;
  double sum = 0;
  double max = 0;
  double last = 0;
  std::array<std::uint64_t, kBounds.size()> at_most{};  // runs of <= kBounds[i] seconds

  void observe(double seconds) {
    ++count;
    sum += seconds;
    max = std::max(max, seconds);
    last = seconds;
    for (std::size_t i = 0; i < kBounds.size(); ++i) {
      if (seconds <= kBounds[i]) ++at_most[i];
    }
  }
  double mean() const { return count == 0 ? 0 : sum / static_cast<double>(count); }
};

}  // namespace fairway::daemon
