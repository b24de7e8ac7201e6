// A workload to replay: jobs with what they ask for (the spec) and what they really use
// (the runtime, which the scheduler never sees). Read from SWF or JSONL traces.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shared/base/result.h"
#include "shared/base/time.h"
#include "shared/config/config.h"
#include "shared/model/job_spec.h"

namespace fairway::sim {

struct WorkloadJob {
  JobSpec spec;
  Duration runtime;             // how long it really runs once started (may exceed its limit)
  std::int64_t line = 0;        // line in the source file, for error messages
  std::int32_t swf_queue = -1;  // SWF field 15 (queue number); -1: none or not SWF
};

struct Workload {
  std::vector<WorkloadJob> jobs;  // sorted by submit time, then id
  std::int64_t skipped = 0;       // SWF jobs dropped (runtime < 0 or no processors)
  std::int32_t max_procs = 0;     // SWF header MaxProcs; 0 when unknown
  std::int32_t max_nodes = 0;     // SWF header MaxNodes; 0 when unknown
};

enum class WorkloadFormat { kSwf, kJsonl };

// From the extension: .swf and .swf.gz -> SWF, .jsonl -> JSONL; otherwise an error.
Result<WorkloadFormat> workload_format_from_path(const std::string& path);
// Parses "swf" / "jsonl" as given to --format.
Result<WorkloadFormat> parse_workload_format(std::string_view name);

// Errors name the file, the line and the field: "trace.jsonl:7: cores: must be >= 1, got 0".
Result<Workload> read_swf(const std::string& path);
Result<Workload> read_jsonl(const std::string& path);
Result<Workload> read_workload(const std::string& path, WorkloadFormat format);

// The workload as it runs: each job array replaced by its tasks, each a job of its own
// (id, array_job, array_task as the core numbers them; the array's runtime), in submit
// order. What the schedule checker and the metrics count.
Workload with_array_tasks(const Workload& w);
bool has_array_jobs(const Workload& w);

// `--queue-partition Q=NAME` rules: SWF jobs of queue number Q go to partition NAME (to
// replay a trace's queues as partitions, e.g. one as an owner tier). Each rule must be
// "integer=name" with NAME one of `partitions`; errors name the rule.
Status assign_queue_partitions(Workload& w, const std::vector<std::string>& rules,
                               const std::vector<PartitionConfig>& partitions);

}  // namespace fairway::sim
