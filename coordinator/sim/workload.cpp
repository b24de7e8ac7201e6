// Format selection; the readers themselves live in swf_reader.cpp and jsonl_reader.cpp.
#include "coordinator/sim/workload.h"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <unordered_map>

namespace fairway::sim {

Result<WorkloadFormat> workload_format_from_path(const std::string& path) {
  const std::string_view p(path);
  if (p.ends_with(".swf") || p.ends_with(".swf.gz")) return WorkloadFormat::kSwf;
  if (p.ends_with(".jsonl")) return WorkloadFormat::kJsonl;
  return invalid_argument(path +
                          ": cannot tell the workload format from the name (expected .swf, "
                          ".swf.gz or .jsonl); pass --format swf|jsonl");
}

Result<WorkloadFormat> parse_workload_format(std::string_view name) {
  if (name == "swf") return WorkloadFormat::kSwf;
  if (name == "jsonl") return WorkloadFormat::kJsonl;
  return invalid_argument("unknown workload format '" + std::string(name) + "' (expected swf or jsonl)");
}

Result<Workload> read_workload(const std::string& path, WorkloadFormat format) {
  switch (format) {
    case WorkloadFormat::kSwf:
      return read_swf(path);
    case WorkloadFormat::kJsonl:
      return read_jsonl(path);
  }
  return make_error(ErrorCode::kInternal, "unhandled workload format");
}

Status assign_queue_partitions(Workload& w, const std::vector<std::string>& rules,
                               const std::vector<PartitionConfig>& partitions) {
  std::unordered_map<std::int32_t, std::string> by_queue;
  for (const std::string& rule : rules) {
    const auto eq = rule.find('=');
    const std::string_view q = std::string_view(rule).substr(0, eq == std::string::npos ? 0 : eq);
    std::int32_t queue = 0;
    const auto [ptr, ec] = std::from_chars(q.data(), q.data() + q.size(), queue);
    if (eq == std::string::npos || q.empty() || ec != std::errc() || ptr != q.data() + q.size() ||
        queue < 0) {
      return invalid_argument("--queue-partition '" + rule +
                              "': expected QUEUE=PARTITION, QUEUE a number >= 0");
    }
    const std::string name = rule.substr(eq + 1);
    if (std::none_of(partitions.begin(), partitions.end(),
                     [&](const PartitionConfig& p) { return p.name == name; })) {
      return invalid_argument("--queue-partition '" + rule + "': partition '" + name +
                              "' is not in the config");
    }
    if (!by_queue.emplace(queue, name).second) {
      return invalid_argument("--queue-partition '" + rule + "': queue " + std::to_string(queue) +
                              " is mapped twice");
    }
  }
  for (WorkloadJob& j : w.jobs) {
    if (auto it = by_queue.find(j.swf_queue); it != by_queue.end()) j.spec.partition = it->second;
  }
  return ok_status();
}

bool has_array_jobs(const Workload& w) {
  return std::any_of(w.jobs.begin(), w.jobs.end(),
                     [](const WorkloadJob& j) { return !j.spec.array.empty(); });
}

Workload with_array_tasks(const Workload& w) {
  if (!has_array_jobs(w)) return w;
  Workload out;
  out.skipped = w.skipped;
  out.max_procs = w.max_procs;
  out.max_nodes = w.max_nodes;
  for (const WorkloadJob& j : w.jobs) {
    if (j.spec.array.empty()) {
      out.jobs.push_back(j);
      continue;
    }
    for (std::int64_t p = 0; p < j.spec.array.count(); ++p) {
      WorkloadJob& t = out.jobs.emplace_back(j);
      t.spec.array = {};
      t.spec.id = JobId(j.spec.id.value() + 1 + static_cast<std::uint64_t>(p));
      t.spec.array_job = j.spec.id;
      t.spec.array_task = j.spec.array.index_at(p);
    }
  }
  return out;
}

}  // namespace fairway::sim
