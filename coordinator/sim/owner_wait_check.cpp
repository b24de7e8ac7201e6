#include "coordinator/sim/owner_wait_check.h"

#include "coordinator/sim/check_text.h"

#include <algorithm>
#include <limits>

namespace fairway::sim {

using namespace check_text;

Status check_owner_start_times(const OwnerWaitInput& in) {
  const auto partition_of = [&](const JobSpec& s) {
    return s.partition.empty() ? in.default_partition : s.partition;
  };
  const auto tier_of = [&](const std::string& p) {
    const auto it = in.preemption.find(p);
    return it == in.preemption.end() ? std::pair<std::int32_t, bool>{0, false} : it->second;
  };
  std::int32_t lowest = std::numeric_limits<std::int32_t>::max();
  for (const auto& [name, t] : in.preemption) lowest = std::min(lowest, t.first);
  // Per record, once: its partition's tier and preemption terms (the inner loop below
  // runs owners x records times).
  struct Terms {
    std::int32_t tier = 0;
    bool preemptable = false;
    Duration exempt, grace, limit;
  };
  std::vector<Terms> terms_of(in.records.size());
  for (std::size_t k = 0; k < in.records.size(); ++k) {
    const std::string kp = partition_of(*in.specs[k]);
    const auto kt = tier_of(kp);
    const auto kterms = in.terms.find(kp);
    terms_of[k] = {kt.first, kt.second && kterms != in.terms.end(),
                   kterms != in.terms.end() ? kterms->second.exempt : Duration(),
                   kterms != in.terms.end() ? kterms->second.grace : Duration(), in.specs[k]->time_limit};
  }
  for (std::size_t i = 0; i < in.records.size(); ++i) {
    const ScheduleRecord& j = in.records[i];
    if (j.preempted || j.preempted_by) continue;
    const JobSpec& spec = *in.specs[i];
    const std::string part = partition_of(spec);
    const std::int32_t tier = terms_of[i].tier;
    if (tier <= lowest || spec.hold || spec.resources.nodes != 0 || spec.resources.gpus != 0) continue;
    if (!in.exact_rounding[i]) continue;
    const Time t0 = j.submit;
    const auto terms = in.terms.find(part);
    std::vector<bool> on_partition(in.nodes.size(), terms == in.terms.end() || terms->second.nodes.empty());
    if (terms != in.terms.end()) {
      for (const std::string& name : terms->second.nodes) {
        for (std::size_t n = 0; n < in.nodes.size(); ++n) {
          if (in.nodes[n].name == name) on_partition[n] = true;
        }
      }
    }
    std::int64_t room = 0;
    for (std::size_t n = 0; n < in.nodes.size(); ++n) room += on_partition[n] ? in.nodes[n].total_cores() : 0;
    bool rival = false;
    Duration grace;
    for (std::size_t k = 0; k < in.records.size() && !rival; ++k) {
      if (k == i) continue;
      const ScheduleRecord& r = in.records[k];
      const Terms& kt = terms_of[k];
      if (kt.tier >= tier && !r.preempted && r.submit <= t0 && r.start > t0) rival = true;
      // A job that outlived its time limit while the owner waited (traces keep overruns)
      // may have held what the owner's plan counted on: the excuse (e) allows too.
      if (r.start < j.start && r.end > t0 && r.end - r.start > kt.limit) rival = true;
      if (r.start > t0 || r.end <= t0) continue;  // not running at t0
      std::int64_t held = 0;
      auto cursor = r.allocation.cursor();
      for (NodeAllocation na; cursor.next(na);) {
        if (on_partition[na.node.value()]) held += static_cast<std::int64_t>(na.cores.size());
      }
      if (kt.preemptable && kt.tier < tier && t0 - r.start >= kt.exempt) {
        grace = std::max(grace, kt.grace);
      } else {
        room -= held;
      }
    }
    if (rival || room < spec.resources.cores) continue;
    if (j.start > t0 + grace + Duration::seconds(1)) {
      return make_error(ErrorCode::kFailedPrecondition,
                        job(j.id) + " (tier " + str(tier) + ") arrived at " + str(t0) +
                            " when free and preemptable lower-tier cores covered its " +
                            str(spec.resources.cores) + " cores, but started only at " + str(j.start) +
                            " (longest grace " + str(grace.count()) + " s)");
    }
  }
  return ok_status();
}

}  // namespace fairway::sim
