#include "coordinator/core/priority.h"

namespace fairway {

PriorityBreakdown compute_priority(const PriorityWeights& w, const PriorityInputs& in) {
  PriorityBreakdown b;
  Duration waited = in.waited < Duration() ? Duration() : in.waited;
  if (waited > w.age_cap) waited = w.age_cap;
  b.age = w.age_per_minute * static_cast<double>(waited.count()) / 60.0;
  b.fairshare = in.fairshare_minutes ? *in.fairshare_minutes * w.age_per_minute
                                     : w.fairshare * in.fairshare_factor;
  b.size = w.size * in.size_fraction;
  b.partition = w.partition * in.partition_priority;
  b.qos = w.qos * in.qos_priority;
  b.total = b.age + b.fairshare + b.size + b.partition + b.qos;
  if (in.cap && b.total > *in.cap) b.total = *in.cap;
  return b;
}

}  // namespace fairway
