// A partition's preemption keys: its tier among partitions, and what happens to its jobs
// when a higher tier needs their cores (Palmetto's owner partitions, seed 004).
#include "shared/config/config_sections.h"

namespace fairway::config_internal {

Status parse_partition_preemption(const TomlReader& r, const toml::table& t, const std::string& path,
                                  PartitionConfig& part) {
  FAIRWAY_TRY(r.read_int(t, "priority_tier", path, 0, 65535, part.priority_tier));
  FAIRWAY_TRY(r.read_choice(
      t, "preempt", path,
      {{"off", PreemptMode::kOff}, {"requeue", PreemptMode::kRequeue}, {"cancel", PreemptMode::kCancel}},
      part.preempt));
  FAIRWAY_TRY(r.read_time(t, "preempt_exempt_time", path, false, part.preempt_exempt_time));
  FAIRWAY_TRY(r.read_time(t, "preempt_grace", path, false, part.preempt_grace));
  for (const char* key : {"preempt_exempt_time", "preempt_grace"}) {
    if (t.contains(key) && part.preempt == PreemptMode::kOff) {
      return r.fail(path + "." + key, std::string("set on partition '") + part.name +
                                          "', whose jobs are not preemptable (preempt = \"off\")");
    }
  }
  if (part.preempt_exempt_time.is_infinite() || part.preempt_grace.is_infinite()) {
    return r.fail(path + (part.preempt_grace.is_infinite() ? ".preempt_grace" : ".preempt_exempt_time"),
                  "must be finite (partition '" + part.name + "')");
  }
  return ok_status();
}

}  // namespace fairway::config_internal
