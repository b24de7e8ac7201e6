#include "coordinator/core/priority.h"

#include <algorithm>
#include <cmath>

namespace fairway {
namespace {

// How sharply the target queue time factor rises: e^4 ~ 55 times steeper at the target
// than at no wait, so it is negligible early and dominant late, as Maui describes.
constexpr double kQueueTargetSteepness = 4.0;
constexpr double kQueueTargetCap = 2.0;  // in targets: keeps the factor bounded

double minutes(Duration d) {
  return static_cast<double>(d.count()) / 60.0;
}

}  // namespace

double expansion_factor(Duration waited, Duration time_limit) {
  const double limit = static_cast<double>(std::max<std::int64_t>(time_limit.count(), 1));
  const double wait = static_cast<double>(std::max<std::int64_t>(waited.count(), 0));
  return (wait + limit) / limit;
}

double queue_target_factor(Duration waited, Duration target) {
  if (target.is_infinite() || target.count() <= 0) return 0.0;
  const double wait = static_cast<double>(std::max<std::int64_t>(waited.count(), 0));
  const double x = std::min(wait / static_cast<double>(target.count()), kQueueTargetCap);
  return std::expm1(kQueueTargetSteepness * x) / std::expm1(kQueueTargetSteepness);
}

PriorityBreakdown compute_priority(const PriorityWeights& w, const PriorityInputs& in) {
  PriorityBreakdown b;
  Duration waited = in.waited < Duration() ? Duration() : in.waited;
  if (waited > w.age_cap) waited = w.age_cap;
  b.age = w.age_per_minute * minutes(waited);
  b.fairshare =
      in.fairshare_minutes ? *in.fairshare_minutes * w.age_per_minute : w.fairshare * in.fairshare_factor;
  b.size = w.size * in.size_fraction;
  b.partition = w.partition * in.partition_priority;
  b.qos = w.qos * in.qos_priority;
  b.node_bin = w.age_per_minute * minutes(in.node_bin_boost);
  b.overuse = -w.age_per_minute * minutes(in.overuse_penalty);
  if (w.expansion_factor != 0) b.expansion = w.expansion_factor * expansion_factor(in.waited, in.time_limit);
  b.bypass = w.bypass * static_cast<double>(in.bypass_count);
  if (w.queue_target != 0)
    b.queue_target =
        w.queue_target * queue_target_factor(in.waited, in.queue_target_time.value_or(w.queue_target_time));
  b.resources = w.resources_per_core * static_cast<double>(in.cores) +
                w.resources_per_gpu * static_cast<double>(in.gpus);
  b.total = b.age + b.fairshare + b.size + b.partition + b.qos + b.node_bin + b.overuse + b.expansion +
            b.bypass + b.queue_target + b.resources;
  if (in.cap && b.total > *in.cap) b.total = *in.cap;
  // After the cap: a user's own nice lowers even a capped job, as in Slurm.
  b.nice = -static_cast<double>(in.nice);
  b.total += b.nice;
  PriorityBreakdown::Raw& r = b.raw;
  r.age = minutes(waited);
  r.fairshare = in.fairshare_minutes ? *in.fairshare_minutes : in.fairshare_factor;
  r.size = in.size_fraction;
  r.partition = in.partition_priority;
  r.qos = in.qos_priority;
  r.node_bin = minutes(in.node_bin_boost);
  r.overuse = -minutes(in.overuse_penalty);
  r.expansion = expansion_factor(in.waited, in.time_limit);
  r.bypass = static_cast<double>(in.bypass_count);
  r.queue_target = queue_target_factor(in.waited, in.queue_target_time.value_or(w.queue_target_time));
  r.resources = static_cast<double>(in.cores + in.gpus);
  r.nice = static_cast<double>(in.nice);
  return b;
}

std::vector<PriorityTerm> priority_terms(const Config& config, const PriorityBreakdown& b) {
  const PriorityWeights& w = config.priority;
  const bool target_share = config.fairshare.target_share.has_value();
  const PriorityBreakdown::Raw& r = b.raw;
  const std::pair<PriorityTerm, bool> all[] = {
      {{"age", b.age, r.age}, w.age_per_minute != 0},
      {{"fairshare", b.fairshare, r.fairshare}, w.fairshare != 0 || target_share},
      {{"size", b.size, r.size}, w.size != 0},
      {{"partition", b.partition, r.partition}, w.partition != 0},
      {{"qos", b.qos, r.qos}, w.qos != 0},
      {{"node_bin", b.node_bin, r.node_bin}, !config.node_bins.empty()},
      {{"overuse", b.overuse, r.overuse}, !config.allocation_overuse.empty()},
      {{"expansion", b.expansion, r.expansion}, w.expansion_factor != 0},
      {{"bypass", b.bypass, r.bypass}, w.bypass != 0},
      {{"queue_target", b.queue_target, r.queue_target}, w.queue_target != 0},
      {{"resources", b.resources, r.resources}, w.resources_per_core != 0 || w.resources_per_gpu != 0},
      {{"nice", b.nice, r.nice}, false},
  };
  std::vector<PriorityTerm> out;
  for (const auto& [term, configured] : all) {
    if (configured || term.value != 0) out.push_back(term);
  }
  return out;
}

}  // namespace fairway
