// Format selection; the readers themselves live in swf_reader.cpp and jsonl_reader.cpp.
#include "coordinator/sim/workload.h"

#include <string_view>

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
  return invalid_argument("unknown workload format '" + std::string(name) +
                          "' (expected swf or jsonl)");
}

Result<Workload> read_workload(const std::string& path, WorkloadFormat format) {
  switch (format) {
    case WorkloadFormat::kSwf: return read_swf(path);
    case WorkloadFormat::kJsonl: return read_jsonl(path);
  }
  return make_error(ErrorCode::kInternal, "unhandled workload format");
}

}  // namespace fairway::sim
